// Tests of the dispersion model and the weighted factorial fit (design §7), over seeded replicates.
#include "harness/search/dispersion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "harness/search/effects.hpp"
#include "harness/search/factorial_search.hpp"

namespace abtest::search {
namespace {

// A 2^4 matrix: y = 0.05·A + noise whose sd is `sd`, times `spread` where toggle B is on and times
// `spread_c` where C is (the fast, noisy configurations of a real project), plus a shared round offset.
std::vector<std::vector<double>> matrix(const design& d, int rounds, double sd, double spread, std::mt19937_64& rng,
                                        double spread_c = 1.0) {
  std::normal_distribution<double> n;
  std::vector<double> offset;
  for (int r = 0; r < rounds; ++r) offset.push_back(0.05 * n(rng));
  std::vector<std::vector<double>> y;
  for (const auto& run : d.runs) {
    std::vector<double> row;
    const double scale = sd * (run[1] ? spread : 1.0) * (run[2] ? spread_c : 1.0);
    for (int r = 0; r < rounds; ++r) row.push_back(0.05 * run[0] + offset[r] + scale * n(rng));
    y.push_back(row);
  }
  return y;
}

// Under one σ the χ² test keeps the model off (level 1%) nearly always after 3 rounds; a 10-fold σ on
// one toggle turns it on nearly always after 6, and its fitted ratio is near the planted 100.
TEST(dispersion, one_sigma_stays_one_and_a_planted_spread_is_found) {
  const design d = full_factorial(4);
  int false_on = 0, found = 0;
  double log_ratio = 0.0;
  const int replicates = 400;
  for (int i = 0; i < replicates; ++i) {
    std::mt19937_64 rng(3800 + i);
    false_on += analyze_factorial(d, matrix(d, 3, 0.02, 1.0, rng)).dispersion.active();
    const factorial_analysis a = analyze_factorial(d, matrix(d, 6, 0.02, 10.0, rng));
    if (a.dispersion.active()) {
      ++found;
      log_ratio += std::log(a.dispersion.relative_variance({0, 1, 0, 0}) / a.dispersion.relative_variance({0, 0, 0, 0}));
    }
  }
  EXPECT_LE(false_on, replicates * 3 / 100) << "seeds 3800+i";
  EXPECT_GE(found, replicates * 95 / 100) << "seeds 3800+i";
  EXPECT_NEAR(log_ratio / found, std::log(100.0), 0.5) << "mean ln of the fitted variance ratio, seeds 3800+i";
}

// Where the noise differs, the weighted fit's intervals still cover the planted effect at their level,
// and they are narrower than one σ's can be. Noise on B and C (variance 1, 10, 10, 100 over their four
// combinations): A's ±1 effect averages A's effect over them, and the model's pairs AB and AC leave one
// degree of freedom across the four, which the weights give to the quiet ones. (With the noise on B
// alone, A's effect with AB in the model is half the noisy half's, and no weighting changes that.)
TEST(dispersion, weighted_intervals_cover_and_are_narrower) {
  const design d = full_factorial(4);
  int covered = 0, weighted = 0;
  double width_ratio = 0.0;
  const int replicates = 400;
  const double spread = std::sqrt(10.0);
  for (int i = 0; i < replicates; ++i) {
    std::mt19937_64 rng(4800 + i);
    const auto y = matrix(d, 6, 0.02, spread, rng, spread);
    const factorial_analysis a = analyze_factorial(d, y);
    const term_effect& main = a.effects.at(0);  // A's ±1 effect (high − low), true value 0.05
    ASSERT_EQ(main.factors, std::vector<int>{0});
    covered += main.ci_low <= 0.05 && 0.05 <= main.ci_high;
    if (!a.dispersion.active()) continue;
    ++weighted;
    // One σ, least squares alike for every configuration: E = (2/C) Σ x_c ȳ_c has the true SE
    // (2/C)·√(Σ σ_c² / R), four configurations at each of σ², 10σ², 10σ², 100σ².
    const double plain_se = 2.0 / 16.0 * std::sqrt(4.0 * 0.02 * 0.02 * (1.0 + 10.0 + 10.0 + 100.0) / 6.0);
    width_ratio += main.se / plain_se;
  }
  EXPECT_GE(covered, replicates * 92 / 100) << "seeds 4800+i";
  ASSERT_GT(weighted, replicates * 9 / 10);
  EXPECT_LT(width_ratio / weighted, 0.9) << "weighted SE against one σ's, mean over seeds 4800+i";
}

// A matrix whose terms differ in SE is decided term by term: the stop rule and rounds_to_find read
// each term's own SE, and with one σ they are what they were (4σ²/configs a round).
TEST(dispersion, rounds_to_find_follows_the_terms_own_se) {
  const design d = full_factorial(4);
  std::mt19937_64 rng(5800);
  const factorial_analysis one = analyze_factorial(d, matrix(d, 3, 0.02, 1.0, rng));
  ASSERT_FALSE(one.dispersion.active());
  const double per_round = 4.0 * one.sigma * one.sigma / 16.0;
  for (const term_effect& e : one.effects) EXPECT_NEAR(e.se * e.se * one.rounds, per_round, 1e-12);
  const int n = rounds_to_find(one, 0.05, 0.02, 0.9);
  EXPECT_GT(n, 0);
  const factorial_analysis spread = analyze_factorial(d, matrix(d, 3, 0.02, 10.0, rng));
  ASSERT_TRUE(spread.dispersion.active());
  EXPECT_GT(rounds_to_find(spread, 0.05, 0.02, 0.9), n) << "ten times the noise on half the configurations costs rounds";
}

}  // namespace
}  // namespace abtest::search
