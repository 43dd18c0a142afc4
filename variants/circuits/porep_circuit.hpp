// The PoRep-shaped circuit of one partition (Filecoin StackedDrg C2, scaled by a preset): per challenge
// the parents' and the node's columns (Poseidon arity 11) opened in comm_c (Poseidon arity 8), the
// node's label of every layer recomputed with SHA-256 over its parents' labels, the data leaf opened
// in comm_d (SHA-256 binary tree) and the encoded replica node opened in comm_r_last.
//
// Public inputs, in order: replica_id, comm_d, comm_r, then each challenge's node index.
//
//   porep_circuit circuit{&preset, &vanilla.partitions[0]};
//   r1cs::test_cs<> cs;
//   circuit.synthesize(cs);  // cs.is_satisfied()
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "circuits/domain_bits.hpp"
#include "circuits/merkle_oct.hpp"
#include "circuits/merkle_sha.hpp"
#include "circuits/porep_preset.hpp"
#include "circuits/porep_vanilla.hpp"

namespace zk::circuits {

struct porep_circuit {
  static constexpr size_t column_arity = 11;

  const porep_preset* preset;
  const partition_witness* witness;

  template <r1cs::constraint_system CS>
  void synthesize(CS& cs) const {
    const partition_witness& w = *witness;
    const num replica_in = num::alloc_input(cs, w.replica_id);
    const num comm_d_in = num::alloc_input(cs, w.comm_d);
    const num comm_r_in = num::alloc_input(cs, w.comm_r);

    const std::vector<boolean> replica_bits = alloc_domain_bits(cs, w.replica_id);
    num::enforce_equal(cs, pack_domain_bits(cs, replica_bits), replica_in);
    const num comm_c = num::alloc(cs, w.comm_c);
    const num comm_r_last = num::alloc(cs, w.comm_r_last);
    {
      r1cs::namespace_guard ns(cs, [] { return "comm_r"; });
      const std::array<num, 2> halves = {comm_c, comm_r_last};
      num::enforce_equal(cs, poseidon_hash(cs, std::span<const num>(halves)), comm_r_in);
    }
    for (size_t i = 0; i < w.challenges.size(); ++i) {
      r1cs::namespace_guard ns(cs, [i] { return "challenge " + std::to_string(i); });
      synthesize_challenge(cs, w.challenges[i], replica_bits, comm_d_in, comm_c, comm_r_last);
    }
  }

 private:
  template <r1cs::constraint_system CS>
  static std::vector<boolean> alloc_index_bits(CS& cs, uint64_t index, size_t nbits) {
    std::vector<boolean> bits;
    for (size_t b = 0; b < nbits; ++b) bits.push_back(boolean::alloc(cs, (index >> b) & 1));
    return bits;
  }

  // Column hash of the labels, padded with constant zeros to the arity.
  template <r1cs::constraint_system CS>
  static num column_hash(CS& cs, const std::vector<num>& labels) {
    std::vector<num> inputs(labels);
    while (inputs.size() < column_arity) inputs.push_back(num::constant(fr::zero()));
    return poseidon_hash(cs, std::span<const num>(inputs));
  }

  template <r1cs::constraint_system CS>
  void synthesize_challenge(CS& cs, const challenge_witness& c, const std::vector<boolean>& replica_bits,
                            const num& comm_d_in, const num& comm_c, const num& comm_r_last) const {
    const porep_preset& p = *preset;
    const num challenge_in = num::alloc_input(cs, fr::from_u64(c.node.index));
    const std::vector<boolean> index_bits = alloc_index_bits(cs, c.node.index, p.index_bits());
    num::enforce_equal(cs, num::pack_bits(cs, index_bits), challenge_in);

    // Parents: label bits (for the labelling hashes) packed into their columns, opened in comm_c.
    std::vector<std::vector<std::vector<boolean>>> parent_bits(c.parents.size());  // [parent][layer]
    for (size_t k = 0; k < c.parents.size(); ++k) {
      r1cs::namespace_guard ns(cs, [k] { return "parent " + std::to_string(k); });
      std::vector<num> labels;
      for (const fr& label : c.parents[k].labels) {
        parent_bits[k].push_back(alloc_domain_bits(cs, label));
        labels.push_back(pack_domain_bits(cs, parent_bits[k].back()));
      }
      const std::vector<boolean> bits = alloc_index_bits(cs, c.parents[k].index, 3 * p.oct_depth);
      num::enforce_equal(cs, oct_merkle_root(cs, column_hash(cs, labels), c.parents[k].path, bits), comm_c);
    }

    // Labels: SHA-256(replica_id ‖ layer, node ‖ parent labels repeated to label_chunks chunks).
    std::vector<num> labels;
    for (size_t layer = 0; layer < p.layers; ++layer) {
      r1cs::namespace_guard ns(cs, [layer] { return "label " + std::to_string(layer); });
      std::vector<boolean> msg(replica_bits);
      const auto position = label_position_chunk(static_cast<uint32_t>(layer), 0);
      for (size_t i = 0; i < 256; ++i) {
        const size_t byte = i / 8, bit = 7 - i % 8;
        const bool in_node = byte >= 4 && byte < 12 && 8 * (byte - 4) + bit < index_bits.size();
        msg.push_back(in_node ? index_bits[8 * (byte - 4) + bit] : boolean::constant((position[byte] >> bit) & 1));
      }
      for (size_t chunk = 0; chunk < p.label_chunks; ++chunk) {
        const auto& bits = parent_bits[chunk % parent_bits.size()][layer];
        msg.insert(msg.end(), bits.begin(), bits.end());
      }
      labels.push_back(pack_domain_bits(cs, truncate_digest(sha256(cs, msg))));
    }
    {
      r1cs::namespace_guard ns(cs, [] { return "column"; });
      num::enforce_equal(cs, oct_merkle_root(cs, column_hash(cs, labels), c.node.path, index_bits), comm_c);
    }

    // Data leaf in comm_d, and the encoded replica node (last label + data) in comm_r_last.
    const std::vector<boolean> data_bits = alloc_domain_bits(cs, c.data_leaf);
    const num data = pack_domain_bits(cs, data_bits);
    {
      r1cs::namespace_guard ns(cs, [] { return "comm_d"; });
      const auto root = sha_merkle_root(cs, data_bits, c.data_path, index_bits);
      num::enforce_equal(cs, pack_domain_bits(cs, root), comm_d_in);
    }
    {
      r1cs::namespace_guard ns(cs, [] { return "comm_r_last"; });
      using lc = typename CS::lc;
      const num encoded = num::alloc(cs, labels.back().value() + data.value());
      r1cs::enforce(
          cs, [] { return "encode"; },
          [&](lc z) { return std::move(z) + labels.back().lc<lc>() + data.lc<lc>(); },
          [](lc z) { return std::move(z) + CS::one(); }, [&](lc z) { return std::move(z) + encoded.lc<lc>(); });
      num::enforce_equal(cs, oct_merkle_root(cs, encoded, c.replica_path, index_bits), comm_r_last);
    }
  }
};

}  // namespace zk::circuits
