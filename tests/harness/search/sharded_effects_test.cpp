// Factorial effects over shards paired with their own base: one shard is exactly the unsharded
// analysis; machine offsets per shard cancel; the standard errors hold their coverage.
#include "harness/search/sharded_effects.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "harness/search/effects.hpp"

#include "planted_model.hpp"

namespace abtest::search {
namespace {

using search::testing::model;
using search::testing::truth;

const model planted{{{0}, 0.06}, {{1}, -0.02}, {{3}, 0.01}, {{0, 1}, 0.03}, {{2, 3}, -0.015}};

// The shards of `matrix --shard I/N`: design runs with index % N == I, base in every shard. Shard s
// runs on its own machine (offset 0.2·s) with its own per-round drift; every sample has noise.
std::vector<shard_values> sharded(const design& d, const model& m, int shards, int rounds, double noise,
                                  std::mt19937_64& rng) {
  // N(0, 1) scaled by `noise`: N(0, noise) itself needs noise > 0, and noiseless data asks for 0.
  std::normal_distribution<double> n;
  std::vector<shard_values> out(static_cast<std::size_t>(shards));
  for (int s = 0; s < shards; ++s) {
    auto& sh = out[static_cast<std::size_t>(s)];
    std::vector<double> block;
    for (int r = 0; r < rounds; ++r) block.push_back(0.2 * s + 0.03 * std::sin(r + 3.0 * s));
    for (std::size_t c = 0; c < d.runs.size(); ++c) {
      if (c != 0 && static_cast<int>(c % static_cast<std::size_t>(shards)) != s) continue;
      sh.configs.push_back(c);
      std::vector<double> row;
      for (int r = 0; r < rounds; ++r)
        row.push_back(truth(m, d.runs[c]) + block[static_cast<std::size_t>(r)] + (noise > 0 ? noise * n(rng) : 0.0));
      sh.y.push_back(std::move(row));
    }
  }
  return out;
}

const term_effect& find(const std::vector<term_effect>& table, const std::vector<int>& factors) {
  for (const term_effect& e : table)
    if (e.factors == factors) return e;
  throw std::logic_error("term not in table");
}

TEST(sharded_effects, one_shard_is_the_unsharded_analysis) {
  for (const design& d : {full_factorial(4), fractional_factorial(5), one_at_a_time(4)}) {
    std::mt19937_64 rng(5);
    const auto shards = sharded(d, planted, 1, 6, 0.02, rng);
    const factorial_analysis a = analyze_factorial(d, shards[0].y);
    const factorial_analysis b = analyze_sharded(d, shards);
    ASSERT_EQ(a.effects.size(), b.effects.size());
    EXPECT_NEAR(a.sigma, b.sigma, 1e-12);
    EXPECT_EQ(a.df, b.df);
    for (std::size_t i = 0; i < a.effects.size(); ++i) {
      EXPECT_EQ(a.effects[i].factors, b.effects[i].factors);
      EXPECT_NEAR(a.effects[i].estimate, b.effects[i].estimate, 1e-10) << d.kind << " effect " << i;
      EXPECT_NEAR(a.effects[i].se, b.effects[i].se, 1e-10) << d.kind << " effect " << i;
      EXPECT_NEAR(a.effects[i].p_adjusted, b.effects[i].p_adjusted, 1e-9) << d.kind << " effect " << i;
    }
    for (std::size_t i = 0; i < a.attribution.size(); ++i) {
      EXPECT_NEAR(a.attribution[i].estimate, b.attribution[i].estimate, 1e-10) << d.kind << " term " << i;
      EXPECT_NEAR(a.attribution[i].se, b.attribution[i].se, 1e-10) << d.kind << " term " << i;
    }
  }
}

TEST(sharded_effects, machine_offsets_of_the_shards_cancel_on_noiseless_data) {
  const design d = full_factorial(4);
  std::mt19937_64 rng(1);
  const auto shards = sharded(d, planted, 4, 3, 0.0, rng);
  const factorial_analysis a = analyze_sharded(d, shards);
  for (const term_effect& e : a.attribution) {
    const auto it = planted.find(e.factors);
    EXPECT_NEAR(e.estimate, it == planted.end() ? 0.0 : it->second, 1e-12);
  }
  const auto measured = measured_log_ratios(d, shards);
  for (std::size_t c = 0; c < d.runs.size(); ++c)
    EXPECT_NEAR(measured[c], truth(planted, d.runs[c]) - truth(planted, d.runs[0]), 1e-12);
  // Pooling the shards as if they were one machine confuses the offsets with factors A and B
  // (index % 4 fixes their levels within a shard): what pairing with each shard's base avoids.
  std::vector<std::vector<double>> naive(d.runs.size());
  for (const auto& sh : shards)
    for (std::size_t i = 0; i < sh.configs.size(); ++i)
      if (sh.configs[i] != 0 || naive[0].empty()) naive[sh.configs[i]] = sh.y[i];
  EXPECT_GT(std::abs(find(analyze_factorial(d, naive).attribution, {0}).estimate - 0.06), 0.1);
}

TEST(sharded_effects, confidence_intervals_keep_their_coverage_across_shards) {
  // A (factor 0) is confounded with the shard under index % 4; C (factor 2) is balanced within
  // every shard. Both must keep 95% coverage: the covariance through each shard's base is right.
  const design d = full_factorial(5);
  std::mt19937_64 rng(20240611);
  int covered_a = 0, covered_c = 0, covered_ab = 0;
  const int replicates = 400;
  for (int i = 0; i < replicates; ++i) {
    const factorial_analysis a = analyze_sharded(d, sharded(d, planted, 4, 4, 0.02, rng));
    const auto& ga = find(a.attribution, {0});
    const auto& gc = find(a.attribution, {2});
    const auto& gab = find(a.attribution, {0, 1});
    covered_a += ga.ci_low <= 0.06 && 0.06 <= ga.ci_high;
    covered_c += gc.ci_low <= 0.0 && 0.0 <= gc.ci_high;
    covered_ab += gab.ci_low <= 0.03 && 0.03 <= gab.ci_high;
  }
  std::printf("[ measured ] 95%% CI coverage over %d replicates: γ_A %.3f, γ_C %.3f, γ_AB %.3f\n", replicates,
              covered_a / double(replicates), covered_c / double(replicates), covered_ab / double(replicates));
  for (int covered : {covered_a, covered_c, covered_ab}) {
    EXPECT_GE(covered, 0.92 * replicates);
    EXPECT_LE(covered, 0.98 * replicates);
  }
}

TEST(sharded_effects, culprits_found_across_shards) {
  const design d = full_factorial(5);
  std::mt19937_64 rng(3);
  const model m{{{0}, 0.06}, {{3}, 0.06}, {{0, 3}, 0.066}, {{2}, -0.004}};
  const factorial_outcome f = attribute_sharded(d, sharded(d, m, 4, 6, 0.02, rng), 0.05, 0.01);
  std::set<std::vector<int>> culprits;
  for (const auto& c : f.culprits) culprits.insert(c.factors);
  EXPECT_EQ(culprits, (std::set<std::vector<int>>{{0}, {3}, {0, 3}}));
}

// The shards of a given split (out[c] = shard of run c; base in every shard), as in sharded().
std::vector<shard_values> split(const design& d, const model& m, const std::vector<int>& shard_of, int shards, int rounds,
                                double noise, std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, noise);
  std::vector<shard_values> out(static_cast<std::size_t>(shards));
  for (int s = 0; s < shards; ++s)
    for (std::size_t c = 0; c < d.runs.size(); ++c) {
      if (c != 0 && shard_of[c] != s) continue;
      auto& sh = out[static_cast<std::size_t>(s)];
      sh.configs.push_back(c);
      std::vector<double> row;
      for (int r = 0; r < rounds; ++r) row.push_back(truth(m, d.runs[c]) + 0.2 * s + n(rng));
      sh.y.push_back(std::move(row));
    }
  return out;
}

TEST(sharded_effects, balanced_split_keeps_every_term_near_its_single_host_precision) {
  // The 16-run half fraction of 5 factors is saturated (15 terms): any split confounds one term with
  // the shards, which is then estimated through the bases alone; the split can only do no worse.
  struct split_case {
    design d;
    int shards;
    double bound;
  };
  for (const auto& [d, shards, bound] : {split_case{full_factorial(5), 4, 1.25}, split_case{full_factorial(4), 3, 1.25},
                                         split_case{fractional_factorial(6), 4, 1.25}, split_case{fractional_factorial(5), 2, 3.0}}) {
    const auto shard_of = balanced_shards(d, shards);
    ASSERT_EQ(shard_of.size(), d.runs.size());
    std::vector<int> size(static_cast<std::size_t>(shards), 0);
    for (std::size_t c = 1; c < d.runs.size(); ++c) {
      ASSERT_GE(shard_of[c], 0);
      ASSERT_LT(shard_of[c], shards);
      ++size[static_cast<std::size_t>(shard_of[c])];
    }
    EXPECT_LE(*std::max_element(size.begin(), size.end()) - *std::min_element(size.begin(), size.end()), 1) << d.kind;
    EXPECT_EQ(balanced_shards(d, shards), shard_of) << "deterministic: every shard computes the same split";
    // SEs relative to one host measuring everything (same σ: compare the covariance factors).
    std::mt19937_64 rng(9);
    std::vector<int> round_robin(d.runs.size());
    for (std::size_t c = 0; c < d.runs.size(); ++c) round_robin[c] = static_cast<int>(c % static_cast<std::size_t>(shards));
    const auto one = analyze_sharded(d, split(d, planted, std::vector<int>(d.runs.size(), 0), 1, 4, 0.02, rng));
    const auto bal = analyze_sharded(d, split(d, planted, shard_of, shards, 4, 0.02, rng));
    const auto rr = analyze_sharded(d, split(d, planted, round_robin, shards, 4, 0.02, rng));
    double worst_balanced = 0, worst_round_robin = 0;
    for (std::size_t t = 0; t < one.effects.size(); ++t) {
      worst_balanced = std::max(worst_balanced, bal.effects[t].se / bal.sigma / (one.effects[t].se / one.sigma));
      worst_round_robin = std::max(worst_round_robin, rr.effects[t].se / rr.sigma / (one.effects[t].se / one.sigma));
    }
    std::printf("[ measured ] %s 2^%d in %d shards: worst SE / single host: balanced %.2f, index %% shards %.2f\n", d.kind.c_str(), d.k,
                shards, worst_balanced, worst_round_robin);
    EXPECT_LE(worst_balanced, bound) << d.kind << " in " << shards;
    EXPECT_LE(worst_balanced, worst_round_robin + 1e-9) << d.kind << " in " << shards;
  }
}

TEST(sharded_effects, rejects_a_shard_without_base_and_a_configuration_measured_twice) {
  const design d = full_factorial(3);
  std::mt19937_64 rng(2);
  auto shards = sharded(d, model{{{0}, 0.06}}, 2, 3, 0.01, rng);
  auto twice = shards;
  twice.push_back(shards[1]);
  EXPECT_THROW(analyze_sharded(d, twice), std::invalid_argument);
  shards[1].configs.erase(shards[1].configs.begin());
  shards[1].y.erase(shards[1].y.begin());
  EXPECT_THROW(analyze_sharded(d, shards), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::search
