// What the counting pass learns of a circuit before synthesis: the final sizes of one partition's
// proving assignment (A2's hint) and the shape of A, B and C. Plain data, independent of A1's inline
// capacity, so code that only reports or forwards them does not read the toggle.
#pragma once

#include <array>
#include <cstddef>

namespace zk::r1cs {

// Final sizes of one partition's assignment; num_constraints counts the input constraints the
// prover appends after synthesis (one per input, as bellman does).
struct size_hint {
  size_t num_inputs = 0;
  size_t num_aux = 0;
  size_t num_constraints = 0;
};

// Terms per row, the share of short rows, and A/B aux densities (design §10's target figures).
struct lc_shape {
  size_t rows = 0;
  std::array<size_t, 3> terms{};       // total terms in A, B, C
  std::array<size_t, 3> short_rows{};  // rows with ≤ 3 terms
  size_t num_aux = 0, a_aux_dense = 0, b_aux_dense = 0;

  double mean_terms(size_t m) const { return rows ? double(terms[m]) / double(rows) : 0.0; }
  double short_share(size_t m) const { return rows ? double(short_rows[m]) / double(rows) : 0.0; }
  double a_aux_density() const { return num_aux ? double(a_aux_dense) / double(num_aux) : 0.0; }
  double b_aux_density() const { return num_aux ? double(b_aux_dense) / double(num_aux) : 0.0; }
};

}  // namespace zk::r1cs
