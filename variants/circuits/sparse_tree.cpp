// Builds a sparse Merkle tree level by level from the opened leaves.
#include "circuits/sparse_tree.hpp"

namespace zk::circuits {

sparse_tree::sparse_tree(size_t arity, size_t depth, const std::map<uint64_t, fr>& leaves, const hash_fn& hash,
                         const filler_fn& filler)
    : arity_(arity), levels_{leaves}, filler_(filler) {
  std::vector<fr> children(arity);
  for (size_t level = 0; level < depth; ++level) {
    std::map<uint64_t, fr> up;
    for (const auto& [index, value] : levels_[level]) {
      const uint64_t parent = index / arity;
      if (up.count(parent)) continue;
      for (size_t k = 0; k < arity; ++k) children[k] = node(level, parent * arity + k);
      up[parent] = hash(children);
    }
    levels_.push_back(std::move(up));
  }
}

fr sparse_tree::node(size_t level, uint64_t index) const {
  const auto it = levels_[level].find(index);
  return it != levels_[level].end() ? it->second : filler_(level, index);
}

std::vector<std::vector<fr>> sparse_tree::path(uint64_t leaf) const {
  std::vector<std::vector<fr>> out;
  for (size_t level = 0; level + 1 < levels_.size(); ++level) {
    const uint64_t first = leaf / arity_ * arity_;
    std::vector<fr> siblings;
    for (uint64_t k = first; k < first + arity_; ++k)
      if (k != leaf) siblings.push_back(node(level, k));
    out.push_back(std::move(siblings));
    leaf /= arity_;
  }
  return out;
}

}  // namespace zk::circuits
