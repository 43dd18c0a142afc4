// Factorial attribution for small toggle sets: screen in ±1 coding, re-fit the active terms in 0/1 coding.
#pragma once

#include <vector>

#include "harness/search/design.hpp"
#include "harness/search/effects.hpp"
#include "harness/search/oracle.hpp"
#include "harness/stats/confidence_sequence.hpp"

namespace abtest::search {

struct factorial_outcome {
  design plan;
  factorial_analysis screen;
  std::vector<term_effect> refit;       // the active terms (+ parents of active pairs) in 0/1 coding
  std::vector<term_effect> culprits;    // refit terms with Holm p < α and |γ| > ln(1 + margin)
  int rounds = 0;                       // matrix rounds run
};

// The terms a screen found active (Holm p < α) with the main effects of each active pair
// (heredity), main effects first.
std::vector<std::vector<int>> active_terms(const std::vector<term_effect>& screen, double alpha);
// The re-fitted terms named culprits: Holm p < α and |γ| > ln(1 + margin).
std::vector<term_effect> culprits_among(const std::vector<term_effect>& refit, double alpha, double margin);

// The active-term selection and re-fit on a measured matrix (no oracle): exposed for tests.
factorial_outcome attribute(const design& plan, const std::vector<std::vector<double>>& log_values, double alpha,
                            double margin);

// Runs the matrix `plan` (a design over `factors`) between from (all 0) and the factors' high levels,
// then attribute(). `rounds` is the most it runs (the plan's size, for power). With `stop_margin` > 0
// it runs in growing batches (3 rounds, then as many again, …) and stops early once every ±1 term is
// decided (matrix_decided): a matrix whose effects are large then costs what they need, not what a
// 2% effect would.
factorial_outcome factorial_search(search_session& session, const levels& from, const std::vector<factor>& factors,
                                   const design& plan, int rounds, double alpha, double margin, double stop_margin = 0.0);

// Whether every ±1 term of a screen is decided: its always-valid interval (the mixture sequence of
// Johari et al. 2017 over the rounds' own contrasts, each of variance 4σ²/configs with σ the screen's
// residual at its 95% upper bound, at α / terms) excludes 0, or lies inside ±ln(1 + stop_margin).
bool matrix_decided(const factorial_analysis& screen, double alpha, double stop_margin);

// A confirmation experiment of a pair's four cells (from, from + i, from + j, from + both), run in
// batches of rounds (the first `o.min_rounds`, then 5 at a time) until the always-valid confidence
// sequence of the per-round interaction contrast d = y_ij − y_i − y_j + y_0 (the pair's 0/1 γ_ij) is
// decisive under o.margin — SLOWER or FASTER, or SAME inside ±margin — or o.max_rounds are spent.
// Rounds with a missing cell are left out.
stats::verdict_result four_cells(search_session& session, const levels& from, const std::vector<factor>& factors, int i,
                                 int j, const stats::sequential_options& o, stats::log_estimate& estimate);

}  // namespace abtest::search
