// Factorial attribution for small toggle sets: screen in ±1 coding, re-fit the active terms in 0/1 coding.
#pragma once

#include <vector>

#include "harness/search/design.hpp"
#include "harness/search/effects.hpp"
#include "harness/search/oracle.hpp"

namespace abtest::search {

struct factorial_outcome {
  design plan;
  factorial_analysis screen;
  std::vector<term_effect> refit;       // the active terms (+ parents of active pairs) in 0/1 coding
  std::vector<term_effect> culprits;    // refit terms with Holm p < α and |γ| > ln(1 + margin)
};

// The terms a screen found active (Holm p < α) with the main effects of each active pair
// (heredity), main effects first.
std::vector<std::vector<int>> active_terms(const std::vector<term_effect>& screen, double alpha);
// The re-fitted terms named culprits: Holm p < α and |γ| > ln(1 + margin).
std::vector<term_effect> culprits_among(const std::vector<term_effect>& refit, double alpha, double margin);

// The active-term selection and re-fit on a measured matrix (no oracle): exposed for tests.
factorial_outcome attribute(const design& plan, const std::vector<std::vector<double>>& log_values, double alpha,
                            double margin);

// Runs the matrix for `factors` between from (all 0) and the factors' high levels, then attribute().
factorial_outcome factorial_search(search_session& session, const levels& from, const std::vector<factor>& factors,
                                   int rounds, double alpha, double margin);

}  // namespace abtest::search
