// PELT with MBIC: exact segmentation of clear series, none for noise and constants.
#include "harness/changepoint/pelt.hpp"

#include <gtest/gtest.h>

#include "synthetic.hpp"

namespace abtest::changepoint {

TEST(pelt, segments_three_levels) {
  auto x = testing::noise(90, 0.01, 31);
  testing::add_step(x, 30, 0.1);
  testing::add_step(x, 60, -0.05);
  const auto cuts = pelt(x);
  ASSERT_EQ(cuts.size(), 2u) << "seed 31";
  EXPECT_NEAR(static_cast<double>(cuts[0]), 30, 1);
  EXPECT_NEAR(static_cast<double>(cuts[1]), 60, 1);
}

TEST(pelt, respects_the_minimum_segment_size) {
  auto x = testing::noise(40, 0.01, 32);
  testing::add_step(x, 38, 0.5);  // only two points after the step
  for (std::size_t c : pelt(x)) EXPECT_LE(c, 37u);
}

TEST(pelt, constant_and_short_series_have_no_points) {
  EXPECT_TRUE(pelt(std::vector<double>(30, 1.0)).empty());
  EXPECT_TRUE(pelt({1.0, 9.0, 1.0}).empty());
}

}  // namespace abtest::changepoint
