// E-divisive with t-test: exact behaviour on small hand-made series.
#include "harness/changepoint/e_divisive.hpp"

#include <gtest/gtest.h>

#include "synthetic.hpp"

namespace abtest::changepoint {

TEST(e_divisive, finds_two_steps_with_their_magnitudes) {
  auto x = testing::noise(120, 0.01, 21);
  testing::add_step(x, 40, std::log(1.10));
  testing::add_step(x, 80, std::log(0.95));
  const auto p = e_divisive(x);
  ASSERT_EQ(p.size(), 2u) << "seed 21";
  EXPECT_NEAR(static_cast<double>(p[0].index), 40, 1);
  EXPECT_NEAR(static_cast<double>(p[1].index), 80, 1);
  EXPECT_NEAR(p[0].magnitude, 0.10, 0.02);
  EXPECT_NEAR(p[1].magnitude, -0.05, 0.02);
  EXPECT_LE(p[0].p_value, 0.001);
}

TEST(e_divisive, drops_a_significant_step_below_the_minimum_magnitude) {
  auto x = testing::noise(100, 0.001, 22);
  testing::add_step(x, 50, std::log(1.005));  // 5σ but only 0.5%
  EXPECT_TRUE(e_divisive(x).empty()) << "seed 22";
  e_divisive_options o;
  o.min_magnitude = 0.001;
  EXPECT_EQ(e_divisive(x, o).size(), 1u) << "seed 22";
}

TEST(e_divisive, a_step_beyond_the_first_window_is_found) {
  auto x = testing::noise(200, 0.01, 23);
  testing::add_step(x, 170, std::log(1.08));
  const auto p = e_divisive(x);
  ASSERT_EQ(p.size(), 1u) << "seed 23";
  EXPECT_NEAR(static_cast<double>(p[0].index), 170, 1);
}

TEST(e_divisive, short_and_constant_series_have_no_points) {
  EXPECT_TRUE(e_divisive({1.0, 2.0, 3.0, 4.0, 5.0}).empty());
  EXPECT_TRUE(e_divisive(std::vector<double>(50, 2.0)).empty());
}

}  // namespace abtest::changepoint
