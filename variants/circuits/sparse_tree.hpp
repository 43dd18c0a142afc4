// A Merkle tree known only along the opened paths: subtrees nobody opens are stand-in values, so
// a tree over 2³⁰ leaves costs as much as its few challenged paths (the input generator's trees).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace zk::circuits {

class sparse_tree {
 public:
  using hash_fn = std::function<fr(std::span<const fr>)>;
  using filler_fn = std::function<fr(size_t level, uint64_t index)>;

  // `leaves`: index → value of every leaf that will be opened; other nodes come from `filler`.
  sparse_tree(size_t arity, size_t depth, const std::map<uint64_t, fr>& leaves, const hash_fn& hash,
              const filler_fn& filler);

  const fr& root() const { return levels_.back().begin()->second; }

  // Siblings bottom-up: arity − 1 per level, in child order with the opened node left out.
  std::vector<std::vector<fr>> path(uint64_t leaf) const;

 private:
  fr node(size_t level, uint64_t index) const;
  size_t arity_;
  std::vector<std::map<uint64_t, fr>> levels_;
  filler_fn filler_;
};

}  // namespace zk::circuits
