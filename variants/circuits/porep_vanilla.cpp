// Generates the PoRep-shaped circuit's inputs natively: labels, columns and sparse Merkle trees.
#include "circuits/porep_vanilla.hpp"

#include <map>
#include <random>
#include <set>

#include "circuits/poseidon_native.hpp"
#include "circuits/sparse_tree.hpp"

namespace zk::circuits {
namespace {

constexpr size_t column_arity = 11;

// A uniformly random Sha256Domain value (< 2²⁵⁴), the range of labels and data leaves.
fr random_domain(std::mt19937_64& rng) {
  sha256_digest d;
  for (auto& b : d) b = static_cast<uint8_t>(rng());
  return sha256_to_fr(d);
}

fr column_hash(const std::vector<fr>& labels) {
  std::vector<fr> padded(labels);
  padded.resize(column_arity, fr::zero());
  return poseidon_hash(padded);
}

}  // namespace

fr sha256_to_fr(const sha256_digest& d) {
  sha256_digest be;
  for (size_t i = 0; i < 32; ++i) be[i] = d[31 - i];
  be[0] &= 0x3f;
  return *fr::from_bytes_be(be);  // < 2²⁵⁴ < r: always in range
}

std::array<uint8_t, 32> fr_to_le_bytes(const fr& x) {
  const auto be = x.to_bytes_be();
  std::array<uint8_t, 32> le;
  for (size_t i = 0; i < 32; ++i) le[i] = be[31 - i];
  return le;
}

fr sha256_node(const fr& left, const fr& right) {
  sha256_hasher h;
  h.update(fr_to_le_bytes(left));
  h.update(fr_to_le_bytes(right));
  return sha256_to_fr(h.finish());
}

std::array<uint8_t, 32> label_position_chunk(uint32_t layer, uint64_t node) {
  std::array<uint8_t, 32> chunk{};
  for (int i = 0; i < 4; ++i) chunk[i] = static_cast<uint8_t>(layer >> (8 * i));
  for (int i = 0; i < 8; ++i) chunk[4 + i] = static_cast<uint8_t>(node >> (8 * i));
  return chunk;
}

fr label_of(const fr& replica_id, uint32_t layer, uint64_t node, const std::vector<fr>& parent_labels,
            size_t chunks) {
  sha256_hasher h;
  h.update(fr_to_le_bytes(replica_id));
  h.update(label_position_chunk(layer, node));
  for (size_t k = 0; k < chunks; ++k) h.update(fr_to_le_bytes(parent_labels[k % parent_labels.size()]));
  return sha256_to_fr(h.finish());
}

porep_vanilla generate_porep_vanilla(const porep_preset& p, uint64_t seed) {
  porep_vanilla v{std::string(p.name), seed, {}};
  const uint64_t space = uint64_t{1} << p.index_bits();
  const uint64_t bin_space = uint64_t{1} << p.sha_depth, oct_space = uint64_t{1} << (3 * p.oct_depth);
  for (size_t part = 0; part < p.partitions; ++part) {
    std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + part);
    partition_witness w;
    w.replica_id = random_domain(rng);
    // Every opened index distinct in its trees, so each opened leaf has one value.
    std::set<uint64_t> used_bin, used_oct;
    auto draw = [&](bool data_tree_too) {
      for (;;) {
        const uint64_t x = rng() % space;
        if (used_oct.count(x % oct_space) || (data_tree_too && used_bin.count(x % bin_space))) continue;
        used_oct.insert(x % oct_space);
        if (data_tree_too) used_bin.insert(x % bin_space);
        return x;
      }
    };
    for (size_t c = 0; c < p.challenges; ++c) {
      challenge_witness cw;
      cw.node.index = draw(true);
      for (size_t k = 0; k < p.parents; ++k) {
        column_opening parent;
        parent.index = draw(false);
        for (size_t l = 0; l < p.layers; ++l) parent.labels.push_back(random_domain(rng));
        cw.parents.push_back(std::move(parent));
      }
      for (size_t l = 0; l < p.layers; ++l) {
        std::vector<fr> parent_labels;
        for (const auto& parent : cw.parents) parent_labels.push_back(parent.labels[l]);
        cw.node.labels.push_back(
            label_of(w.replica_id, static_cast<uint32_t>(l), cw.node.index, parent_labels, p.label_chunks));
      }
      cw.data_leaf = random_domain(rng);
      w.challenges.push_back(std::move(cw));
    }
    std::map<uint64_t, fr> data_leaves, column_leaves, replica_leaves;
    for (const auto& cw : w.challenges) {
      data_leaves[cw.node.index % bin_space] = cw.data_leaf;
      column_leaves[cw.node.index % oct_space] = column_hash(cw.node.labels);
      replica_leaves[cw.node.index % oct_space] = cw.node.labels.back() + cw.data_leaf;
      for (const auto& parent : cw.parents) column_leaves[parent.index % oct_space] = column_hash(parent.labels);
    }
    auto filler = [&](const char* tree) {
      return [tree, seed, part](size_t level, uint64_t index) {
        const std::string s = std::string("filler/") + tree + "/" + std::to_string(seed) + "/" +
                              std::to_string(part) + "/" + std::to_string(level) + "/" + std::to_string(index);
        return sha256_to_fr(sha256({reinterpret_cast<const uint8_t*>(s.data()), s.size()}));
      };
    };
    const auto sha_pair = [](std::span<const fr> c) { return sha256_node(c[0], c[1]); };
    const auto poseidon = [](std::span<const fr> c) { return poseidon_hash(c); };
    const sparse_tree data_tree(2, p.sha_depth, data_leaves, sha_pair, filler("d"));
    const sparse_tree column_tree(8, p.oct_depth, column_leaves, poseidon, filler("c"));
    const sparse_tree replica_tree(8, p.oct_depth, replica_leaves, poseidon, filler("r"));
    w.comm_d = data_tree.root();
    w.comm_c = column_tree.root();
    w.comm_r_last = replica_tree.root();
    const std::array<fr, 2> comm_r_inputs = {w.comm_c, w.comm_r_last};
    w.comm_r = poseidon_hash(comm_r_inputs);
    for (auto& cw : w.challenges) {
      for (const auto& level : data_tree.path(cw.node.index % bin_space)) cw.data_path.push_back(level[0]);
      cw.node.path = column_tree.path(cw.node.index % oct_space);
      cw.replica_path = replica_tree.path(cw.node.index % oct_space);
      for (auto& parent : cw.parents) parent.path = column_tree.path(parent.index % oct_space);
    }
    v.partitions.push_back(std::move(w));
  }
  return v;
}

}  // namespace zk::circuits
