// Sizes of the PoRep-shaped circuit: tiny (tests) … large, and the real 32 GiB shape (documented only).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace zk::circuits {

struct porep_preset {
  std::string_view name;
  size_t partitions;    // circuits per proof
  size_t challenges;    // challenged nodes per partition
  size_t sha_depth;     // depth of comm_d, the binary SHA-256 tree over the data
  size_t oct_depth;     // depth of comm_c and comm_r_last, the arity-8 Poseidon trees
  size_t layers;        // labelled layers per node (≤ 11, the column-hash arity)
  size_t parents;       // parents per node: their labels enter each label, their columns are opened
  size_t label_chunks;  // 32-byte parent chunks per label message (parents repeated cyclically)
  bool runnable;        // false: documents the real size, too big for this model
  std::string_view note;

  size_t index_bits() const { return sha_depth > 3 * oct_depth ? sha_depth : 3 * oct_depth; }
};

// All presets, smallest first.
std::span<const porep_preset> porep_presets();

// The preset called `name`; throws std::invalid_argument naming the known presets otherwise.
const porep_preset& find_porep_preset(std::string_view name);

}  // namespace zk::circuits
