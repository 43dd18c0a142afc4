// Factorial effects and 0/1 attribution from a matrix of log values run in RMIT rounds (design §7).
#pragma once

#include <vector>

#include "harness/search/design.hpp"
#include "harness/search/dispersion.hpp"

namespace abtest::search {

// One model term: a main effect {j} or a two-factor interaction {i, j} (i < j), on the log scale.
struct term_effect {
  std::vector<int> factors;
  double estimate = 0.0;
  double se = 0.0;
  double t = 0.0;
  double p_value = 1.0;
  double p_adjusted = 1.0;  // Holm (1979) across the terms of the same table
  double ci_low = 0.0;
  double ci_high = 0.0;
};

struct factorial_analysis {
  int configs = 0;     // configurations used (a configuration with no value in any round is left out)
  int rounds = 0;      // rounds used (a round missing any used configuration is dropped, design §6)
  double sigma = 0.0;  // √ of the config × round residual mean square (each configuration's weighted, below)
  double df = 0.0;     // (configs − 1)(rounds − 1)
  // Noise per configuration (dispersion.hpp), kept when the matrix shows its configurations' noise
  // differs (p < 0.01): every fit below is then weighted least squares, each configuration by
  // 1/σ_c² = 1/(σ̂² · relative_variance), and σ̂ is the scale of a configuration of relative variance
  // 1. Inactive: one σ, ordinary least squares.
  dispersion_model dispersion;
  // ±1 coding: E = (2/N_c) Σ_c x_c ȳ_c for an orthogonal design with one σ (its weighted
  // least-squares form otherwise), SE = 2σ̂/√N with N = configs × rounds, t on df, Holm across all terms. Main effects, then pairs.
  std::vector<term_effect> effects;
  // The same model in 0/1 coding (off = 0): ln(V/B) of a variant S vs the all-low configuration is
  // Σ_{i∈S} γ_i + Σ_{i<j∈S} γ_ij. Fitted by least squares in 0/1 coding directly, which is the same
  // model space as ±1 coding, so γ_ij = 2E_ij and γ_i = E_i − Σ_j E_ij exactly (the conversion of
  // design §7: substitute x = 2z − 1 into the ±1 model truncated at pairs); the direct fit also gives
  // each γ its own SE without propagating covariances. Recovers γ exactly on noiseless data whose true
  // model has no terms beyond pairs.
  std::vector<term_effect> attribution;
  // Terms the usable configurations cannot separate from those before them (a configuration that
  // failed in every round leaves a saturated fraction short): left out of both tables, named here.
  std::vector<std::vector<int>> not_estimable;
};

// y[c][r] = ln value of design.runs[c] in round r (NaN = missing). Pairs are estimated unless the
// design is one-at-a-time (main effects only). Fewer than two usable rounds → SEs are NaN, p = 1 and
// CIs are ±∞. Terms the usable configurations cannot separate go to not_estimable (pairs first: they
// come last). Throws std::invalid_argument when y does not match the design or a main effect cannot
// be separated.
factorial_analysis analyze_factorial(const design& d, const std::vector<std::vector<double>>& y,
                                     double confidence = 0.95);

// A reduced model in 0/1 coding over chosen terms (each {j} or {i, j}), σ̂ and df as above, Holm
// across the chosen terms; a term the configurations cannot separate from those before it is left
// out. Use it to re-fit the terms a screen found active.
std::vector<term_effect> fit_terms(const design& d, const std::vector<std::vector<double>>& y,
                                   const std::vector<std::vector<int>>& terms, double confidence = 0.95);

// From each term's estimate and se: t and p on `df`, the CI at `confidence`, Holm across the table.
// Without an error estimate (have_se false) p stays 1 and the CI is ±∞; σ̂ = 0 gives a point CI.
void complete_table(std::vector<term_effect>& table, bool have_se, double df, double confidence);

// The terms a design estimates by default: every main effect, then every pair unless the design is
// one-at-a-time.
std::vector<std::vector<int>> default_terms(const design& d);

// Σ of the 0/1 terms active in `config` (a term is active when all its factors are 1).
double predict(const std::vector<term_effect>& attribution, const std::vector<int>& config);

}  // namespace abtest::search
