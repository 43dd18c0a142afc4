// Factorial effects of one design measured in shards (`abtest matrix --shard I/N`, then merged):
// each shard ran its own configurations together with the all-low configuration (base) in its own
// RMIT rounds, possibly on another machine.
//
//   std::vector<shard_values> parts = ...;           // per shard: design runs measured + ln values
//   factorial_outcome f = attribute_sharded(d, parts, 0.05, 0.01);
//   f.screen.effects / f.screen.attribution / f.culprits   // as search::attribute() gives them
#pragma once

#include <cstddef>
#include <vector>

#include "harness/search/design.hpp"
#include "harness/search/factorial_search.hpp"

namespace abtest::search {

// One shard's measurements: configs[i] is an index into design.runs, y[i][r] its ln value in round r
// (NaN = missing). The shard must contain design run 0 ("base" below: the all-low run of full and
// one-at-a-time designs, the first run of a fraction): every shard is compared with its own base,
// which is what ties shards measured on different machines together.
struct shard_values {
  std::vector<std::size_t> configs;
  std::vector<std::vector<double>> y;
};

// Model: y = μ_c + β_{s,r} + ε, with a block β per (shard, round) — machine, drift and noisy
// neighbours of that round — and ε ~ N(0, σ²). Within shard s (a complete block design over the
// rounds it kept; a round missing any of its configurations is dropped, design §6):
//   d_c = ȳ_c − ȳ_base,s         Var d_c = 2σ²/R_s,  Cov(d_c, d_c') = σ²/R_s in the same shard, 0 across,
//   σ̂² = Σ_s SS_s / Σ_s (C_s − 1)(R_s − 1)   (pooled config × round residual, Montgomery 2017 §4.1).
// The 0/1-coded terms γ (d_c = Σ_t γ_t (z_ct − z_0t), z_ct = 1 when term t is active in c) are fitted by generalized
// least squares on d with that covariance (Aitken 1935), and the ±1 effects of the screen follow
// from the same fit, E_i = γ_i + ½ Σ_j γ_ij, E_ij = ½ γ_ij (design §7's conversion, inverted).
// With a single shard this is exactly analyze_factorial / attribute (the same estimates and SEs).
// Throws std::invalid_argument when a shard lacks base values, a configuration appears in two
// shards, or the configurations present cannot separate the terms (a shard is missing).
factorial_analysis analyze_sharded(const design& d, const std::vector<shard_values>& shards, double confidence = 0.95);

// The same screen → heredity → 0/1 re-fit → culprits as attribute() (factorial_search.hpp).
factorial_outcome attribute_sharded(const design& d, const std::vector<shard_values>& shards, double alpha,
                                    double margin);

// Which shard measures each design run (out[c] ∈ [0, shards); run 0, base, is measured by every
// shard and gets 0). Each shard's runs are chosen so that the ±1 column of every main effect and
// two-factor interaction sums to as near zero as possible within it, which is what keeps a term
// from being estimated only through the shards' bases (the classical reason for blocking a
// factorial on high-order interactions, Box, Hunter & Hunter 2005 §5.15). Plain index % shards
// fixes factors A and B inside each shard of a Yates-ordered full factorial: their SEs come out
// 2.7× the single-host ones at 4 shards of 2^5; balanced, 0.99× (2^(6−1) in 4: 2.8× → 1.08×). A
// saturated design (the 16-run 2^(5−1)) cannot be split without confounding one term with the
// shards; that term is then estimated through the bases only. Local search by pairwise swaps from
// index % shards (sizes stay within one), deterministic, so every shard computes the same split.
std::vector<int> balanced_shards(const design& d, int shards);

// The measured ln ratio of each design run to base: the mean paired difference with its own
// shard's base over the rounds that have both; NaN when not measured.
std::vector<double> measured_log_ratios(const design& d, const std::vector<shard_values>& shards);

}  // namespace abtest::search
