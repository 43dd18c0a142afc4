// Poseidon parameters over Fr for widths t = arity + 1: round numbers, round constants, MDS matrix.
//
// Generated, not copied, by documented methods (see poseidon_params.cpp):
//   rounds     — the security inequalities of the Poseidon paper for x⁵, 128-bit security, with
//                its margin (R_F + 2, R_P · 1.075); arity 2, 8, 11 → (R_F, R_P) = (8, 56), (8, 57), (8, 57)
//   constants  — SHA-256 in counter mode over a domain string, reduced by rejection
//   MDS        — the Cauchy matrix 1 / (x_i + y_j), x_i = i, y_j = t + j
// These are not neptune's Grain-LFSR constants: hashes differ from Filecoin's, the cost is the same.
#pragma once

#include <cstddef>
#include <vector>

#include "ff/fr.hpp"

namespace zk::circuits {

struct poseidon_params {
  size_t width = 0;           // t = arity + 1
  size_t full_rounds = 0;     // R_F, half before and half after the partial rounds
  size_t partial_rounds = 0;  // R_P
  std::vector<fr> round_constants;  // (R_F + R_P) · t, round-major
  std::vector<fr> mds;              // t · t, row-major

  size_t rounds() const { return full_rounds + partial_rounds; }
  bool is_full_round(size_t r) const { return r < full_rounds / 2 || r >= full_rounds / 2 + partial_rounds; }
  const fr& rc(size_t round, size_t i) const { return round_constants[round * width + i]; }
  const fr& m(size_t row, size_t col) const { return mds[row * width + col]; }
  // Neptune's Merkle-tree domain tag 2^arity − 1, the first state element.
  fr domain_tag() const;
};

struct round_numbers {
  size_t full = 0, partial = 0;
};

// The cheapest (R_F·t + R_P) secure round numbers for width t, margin included.
round_numbers poseidon_round_numbers(size_t width);

// Generated once per arity (thread-safe) and kept for the process.
const poseidon_params& poseidon_params_for(size_t arity);

}  // namespace zk::circuits
