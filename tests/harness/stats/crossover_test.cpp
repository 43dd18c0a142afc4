// The duet's estimator: least squares on [1, core, start order], checked against NumPy and SciPy.
#include "harness/stats/crossover.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace abtest::stats {
namespace {

// Rounds 1–8 of the duet schedule (core = +1 when the baseline had the first core, order = +1 when
// it started first).
const std::vector<double> d = {0.031, 0.012, -0.004, 0.027, 0.018, 0.009, 0.002, 0.022};
const std::vector<double> core = {-1, 1, 1, -1, -1, 1, 1, -1};
const std::vector<double> order = {1, 1, -1, -1, 1, 1, -1, -1};

TEST(crossover_t, matches_ordinary_least_squares_with_a_student_t_interval) {
  // /usr/bin/python3, NumPy 1.24.2 + SciPy 1.10.1: X = [1, core, order];
  // beta = np.linalg.lstsq(X, d); s2 = e@e/5; se = sqrt(s2 * inv(X.T@X)[0,0]);
  // beta[0] ± scipy.stats.t.ppf(0.975, 5)·se; p = 2·t.sf(|beta[0]/se|, 5).
  const log_estimate e = crossover_t(d, core, order);
  ASSERT_TRUE(e.has_ci);
  EXPECT_NEAR(e.estimate, 0.014624999999999996, 1e-12);
  EXPECT_NEAR(e.ci_low, 0.009087424350567686, 1e-9);
  EXPECT_NEAR(e.ci_high, 0.020162575649432305, 1e-9);
  EXPECT_NEAR(e.p_value, 0.0010550219261172469, 1e-9);
  EXPECT_EQ(e.df, 5);
  EXPECT_EQ(e.n, 8);
}

TEST(crossover_t, a_core_and_an_order_effect_leave_the_estimate_alone) {
  std::vector<double> shifted = d;
  for (std::size_t i = 0; i < d.size(); ++i) shifted[i] += 0.9 * core[i] - 0.01 * order[i];
  const log_estimate plain = crossover_t(d, core, order), moved = crossover_t(shifted, core, order);
  EXPECT_NEAR(moved.estimate, plain.estimate, 1e-12);
  EXPECT_NEAR(moved.ci_high - moved.ci_low, plain.ci_high - plain.ci_low, 1e-9);
}

TEST(crossover_t, too_few_rounds_or_one_core_throughout_gives_no_interval) {
  EXPECT_FALSE(crossover_t(std::vector<double>(d.begin(), d.begin() + 3), std::vector<double>(core.begin(), core.begin() + 3),
                           std::vector<double>(order.begin(), order.begin() + 3))
                   .has_ci);
  EXPECT_FALSE(crossover_t(d, std::vector<double>(8, 1.0), order).has_ci);  // core cannot be told from the mean
  EXPECT_THROW(crossover_t(d, core, std::vector<double>(7, 1.0)), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::stats
