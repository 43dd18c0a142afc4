// Every run of a search in one model: the matrices' rounds and the comparisons' paired rounds, fitted at once.
#pragma once

#include <functional>
#include <vector>

#include "harness/search/effects.hpp"
#include "harness/search/oracle.hpp"
#include "harness/search/toggle_spec.hpp"

namespace abtest::search {

struct pooled_fit {
  std::vector<term_effect> terms;  // in the order asked: estimate, SE, t on df, CI; Holm across them
  double sigma = 0.0;              // √ of the residual mean square, every block's
  double df = 0.0;                 // observations − blocks − terms
  int observations = 0;            // runs that entered the fit
};

// The terms (each a set of factor indices: {j}, {i, j}) in 0/1 coding against `factors`' low levels —
// ln value = block + Σ_terms γ_t Π_{j∈t} [factor j high] + ε, one σ for every run — fitted by least
// squares over everything `session` measured. Every round is a block: a matrix round holds its
// configurations, an A/B round its two arms, and the block effects are absorbed by centring within
// each. An A/B enters through its summary, which is sufficient here: r rounds of paired differences
// with mean d̄ and sd s add r/2·aaᵀ to XᵀX, r·d̄/2·a to Xᵀy and ((r−1)s² + r·d̄²)/2 to yᵀy, where a
// is the terms' difference between its two arms. So the search's every run counts towards the
// precision it reports — an A/B of from against from + C measures C's 0/1 effect with all of its
// runs, where a factorial spends half of its runs on C's other context. Configurations with a
// toggle at a level neither low nor high are left out. Empty `terms` when the runs cannot separate
// the terms or leave no degree of freedom.
// `relative_variance` (each configuration's σ_c² / σ², the matrix's dispersion model) weighs each run
// by it: a matrix round's block is centred on its weighted mean and each run scaled by 1/σ_c, an
// A/B's rounds by 1/√(σ_a² + σ_b²) — weighted least squares, σ then the scale. Empty: one σ.
pooled_fit fit_every_run(const search_session& session, const std::vector<factor>& factors,
                         const std::vector<std::vector<int>>& terms, double confidence = 0.95,
                         const std::function<double(const levels&)>& relative_variance = {});

}  // namespace abtest::search
