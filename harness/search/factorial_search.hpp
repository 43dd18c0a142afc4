// Factorial attribution for small toggle sets: screen in ±1 coding, re-fit the active terms in 0/1 coding.
#pragma once

#include <functional>
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
// 2% effect would. Where the fit is weighted (noise per configuration), `rounds` gives way to
// rounds_to_find, at most max_matrix_rounds. It adds no batch once the session is out of time.
// Told after each batch of a sequential matrix: the screen so far, the rounds run and the most it
// will run now.
using batch_listener = std::function<void(const factorial_analysis& screen, int done, int most)>;
factorial_outcome factorial_search(search_session& session, const levels& from, const std::vector<factor>& factors,
                                   const design& plan, int rounds, double alpha, double margin, double stop_margin = 0.0,
                                   const batch_listener& on_batch = {});

// The most rounds a matrix runs (price.hpp sizes it at most this).
inline constexpr int max_matrix_rounds = 100;

// The half-width of a term's always-valid interval after `rounds` rounds: the mixture sequence of
// Johari et al. 2017 (scale τ, level α) over the rounds' own contrasts, each of variance SE²·rounds
// at its 95% upper bound on df (4σ²/configs for a ±1 term with one σ; each term its own where the
// fit is weighted); +∞ without an SE.
double always_valid_half_width(const term_effect& e, int rounds, double df, double alpha, double tau);

// Whether every ±1 term of a screen is decided: its always-valid interval (above, at α / terms and
// τ = ln(1 + stop_margin)) excludes 0, or lies inside ±ln(1 + stop_margin).
bool matrix_decided(const factorial_analysis& screen, double alpha, double stop_margin);

// The rounds after which every ±1 term of `screen` finds ln(1 + margin) with `power` at α / terms
// (normal quantiles), each with its own SE as measured: the matrix's size where a weighted fit gives
// the terms different SEs (the plan's one σ no longer says it).
int rounds_to_find(const factorial_analysis& screen, double alpha, double margin, double power);

// A confirmation experiment of a pair's four cells (from, from + i, from + j, from + both), run in
// batches of rounds (the first `o.min_rounds`, then 5 at a time) until the always-valid confidence
// sequence of the per-round interaction contrast d = y_ij − y_i − y_j + y_0 (the pair's 0/1 γ_ij) is
// decisive under o.margin — SLOWER or FASTER, or SAME inside ±margin — or o.max_rounds are spent.
// Rounds with a missing cell are left out.
stats::verdict_result four_cells(search_session& session, const levels& from, const std::vector<factor>& factors, int i,
                                 int j, const stats::sequential_options& o, stats::log_estimate& estimate);

}  // namespace abtest::search
