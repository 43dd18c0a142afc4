// Hampel screening: spikes go, steps stay, flat stretches are not over-flagged.
#include "harness/changepoint/screening.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "synthetic.hpp"

namespace abtest::changepoint {

TEST(screening, replaces_a_one_night_spike_by_the_local_median) {
  auto x = testing::noise(40, 0.02, 11);
  x[20] += 0.5;
  const auto s = screen_outliers(x);
  ASSERT_FALSE(s.outliers.empty()) << "seed 11";
  EXPECT_NE(std::find(s.outliers.begin(), s.outliers.end(), 20u), s.outliers.end()) << "seed 11";
  EXPECT_LE(s.outliers.size(), 2u) << "a noisy 7-point MAD may flag one ordinary night; seed 11";
  EXPECT_LT(std::abs(s.values[20] - std::log(10.0)), 0.05);
}

TEST(screening, keeps_a_step) {
  auto x = testing::noise(40, 0.02, 12);
  testing::add_step(x, 20, 0.2);
  const auto s = screen_outliers(x);
  for (std::size_t i : s.outliers) EXPECT_TRUE(i < 17 || i > 23) << "step point " << i << " screened, seed 12";
  EXPECT_NEAR(s.values[20], x[20], 1e-12);
  EXPECT_NEAR(s.values[19], x[19], 1e-12);
}

TEST(screening, constant_series_flags_nothing_and_short_series_pass_through) {
  EXPECT_TRUE(screen_outliers(std::vector<double>(20, 1.0)).outliers.empty());
  const std::vector<double> two{1.0, 5.0};
  EXPECT_EQ(screen_outliers(two).values, two);
}

TEST(screening, flat_window_falls_back_to_the_series_mad) {
  // seven equal values around a small wiggle: the local MAD is 0, the series MAD is not
  std::vector<double> x = testing::noise(30, 0.02, 13);
  for (std::size_t i = 10; i < 17; ++i) x[i] = x[10];
  x[13] += 0.001;
  const auto s = screen_outliers(x);
  for (std::size_t i : s.outliers) EXPECT_NE(i, 13u);
}

}  // namespace abtest::changepoint
