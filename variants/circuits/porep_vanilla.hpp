// The inputs of the PoRep-shaped circuit ("vanilla proofs", what C1 hands to C2): per partition the
// public commitments and, per challenge, the labels, columns and Merkle paths — deterministic in
// (preset, seed), generated natively outside any timed region, and saved/loaded as JSON.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "circuits/porep_preset.hpp"
#include "circuits/sha256_native.hpp"
#include "ff/fr.hpp"

namespace zk::circuits {

struct column_opening {
  uint64_t index = 0;
  std::vector<fr> labels;                   // one per layer
  std::vector<std::vector<fr>> path;        // comm_c siblings, 7 per level, bottom-up
};

struct challenge_witness {
  column_opening node;                      // the challenged node's column
  std::vector<column_opening> parents;      // its parents' columns
  fr data_leaf;                             // comm_d leaf (< 2²⁵⁴)
  std::vector<fr> data_path;                // comm_d siblings, one per level, bottom-up
  std::vector<std::vector<fr>> replica_path;  // comm_r_last siblings of the encoded leaf
};

struct partition_witness {
  fr replica_id, comm_d, comm_c, comm_r_last, comm_r;
  std::vector<challenge_witness> challenges;
};

struct porep_vanilla {
  std::string preset;
  uint64_t seed = 0;
  std::vector<partition_witness> partitions;
};

// Filecoin's Sha256Domain: the digest with the two top bits of its last byte cleared, read as a
// little-endian integer (< 2²⁵⁴ < r).
fr sha256_to_fr(const sha256_digest& d);
std::array<uint8_t, 32> fr_to_le_bytes(const fr& x);
// comm_d node: SHA-256 of the two children's 32-byte little-endian encodings.
fr sha256_node(const fr& left, const fr& right);
// The 32-byte chunk after replica_id in every label message: layer (u32 LE), node (u64 LE), zeros.
std::array<uint8_t, 32> label_position_chunk(uint32_t layer, uint64_t node);
// label = Sha256Domain(replica_id ‖ position ‖ parent labels repeated to `chunks` chunks).
fr label_of(const fr& replica_id, uint32_t layer, uint64_t node, const std::vector<fr>& parent_labels,
            size_t chunks);

porep_vanilla generate_porep_vanilla(const porep_preset& preset, uint64_t seed);

void save_porep_vanilla(const porep_vanilla& v, const std::filesystem::path& file);
// Throws std::runtime_error with "<file>: <what>" when the file is missing or malformed.
porep_vanilla load_porep_vanilla(const std::filesystem::path& file);

}  // namespace zk::circuits
