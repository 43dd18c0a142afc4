// The duet's estimator: the swap pairs' means, least squares on [1, start order], checked against
// NumPy and SciPy.
#include "harness/stats/crossover.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace abtest::stats {
namespace {

// Rounds 1–12 of the duet schedule (plan.hpp): core = +1 when the baseline had the first core,
// order = +1 when it started first, pair = (round − 1) / 2.
const std::vector<double> d = {0.031, 0.012, -0.004, 0.027, 0.018, 0.009, 0.002, 0.022, 0.015, 0.011, 0.006, 0.025};
const std::vector<double> core = {-1, 1, 1, -1, -1, 1, 1, -1, -1, 1, 1, -1};
const std::vector<double> order = {1, 1, -1, -1, 1, 1, -1, -1, 1, 1, -1, -1};
const std::vector<int> pair = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5};

template <class T>
std::vector<T> first(const std::vector<T>& v, std::size_t n) {
  return {v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n)};
}

TEST(crossover_t, matches_least_squares_on_the_pair_means_with_a_student_t_interval) {
  // /usr/bin/python3, NumPy 1.24.2 + SciPy 1.10.1: m_k = (d[2k] + d[2k+1]) / 2, o_k = order[2k],
  // X = [1, o]; beta = np.linalg.lstsq(X, m); s2 = e@e/4; se = sqrt(s2 * inv(X.T@X)[0,0]);
  // beta[0] ± scipy.stats.t.ppf(0.975, 4)·se; p = 2·t.sf(|beta[0]/se|, 4).
  const log_estimate e = crossover_t(d, core, order, pair);
  ASSERT_TRUE(e.has_ci);
  EXPECT_NEAR(e.estimate, 0.014500000000000002, 1e-12);
  EXPECT_NEAR(e.ci_low, 0.010296947497057821, 1e-9);
  EXPECT_NEAR(e.ci_high, 0.018703052502942186, 1e-9);
  EXPECT_NEAR(e.p_value, 0.0006638428396728913, 1e-9);
  EXPECT_EQ(e.df, 4);  // 6 pairs, less the mean and the order
  EXPECT_EQ(e.n, 12);
}

TEST(crossover_t, a_round_without_its_partner_is_left_out) {
  // Round 12 failed: pair 5 is incomplete, 5 pairs remain (3 of one order, 2 of the other).
  // The same NumPy/SciPy fit on the first 5 pair means, t on 3 df.
  const log_estimate e = crossover_t(first(d, 11), first(core, 11), first(order, 11), first(pair, 11));
  ASSERT_TRUE(e.has_ci);
  EXPECT_EQ(e.n, 10);
  EXPECT_EQ(e.df, 3);
  EXPECT_NEAR(e.estimate, 0.013874999999999993, 1e-12);
  EXPECT_NEAR(e.ci_low, 0.008210243093412352, 1e-9);
  EXPECT_NEAR(e.ci_high, 0.019539756906587637, 1e-9);
}

TEST(crossover_t, a_core_effect_that_changes_from_pair_to_pair_and_an_order_effect_leave_it_alone) {
  // A disturbance that sits on one core for a while: a different core effect in every pair.
  const std::vector<double> drift = {0.9, 0.0, 0.3, 0.05, 0.6, 0.2};
  std::vector<double> shifted = d;
  for (std::size_t i = 0; i < d.size(); ++i) shifted[i] += drift[pair[i]] * core[i] - 0.01 * order[i];
  const log_estimate plain = crossover_t(d, core, order, pair), moved = crossover_t(shifted, core, order, pair);
  EXPECT_NEAR(moved.estimate, plain.estimate, 1e-12);
  EXPECT_NEAR(moved.ci_high - moved.ci_low, plain.ci_high - plain.ci_low, 1e-9);
}

TEST(crossover_t, too_few_pairs_or_one_order_throughout_gives_no_interval) {
  EXPECT_FALSE(crossover_t(first(d, 4), first(core, 4), first(order, 4), first(pair, 4)).has_ci);  // 2 pairs
  EXPECT_FALSE(crossover_t(d, core, std::vector<double>(12, 1.0), pair).has_ci);  // order cannot be told from the mean
  EXPECT_FALSE(crossover_t(d, std::vector<double>(12, 1.0), order, pair).has_ci);  // one core: no pair is complete
  EXPECT_THROW(crossover_t(d, core, order, first(pair, 11)), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::stats
