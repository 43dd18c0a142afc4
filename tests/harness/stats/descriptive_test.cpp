// Tests of the descriptive statistics and their degenerate cases.
#include "harness/stats/descriptive.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace abtest::stats {
namespace {

TEST(descriptive, median_of_odd_and_even_counts) {
  EXPECT_DOUBLE_EQ(median(std::vector<double>{3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median(std::vector<double>{4.0, 1.0, 3.0, 2.0}), 2.5);
}

TEST(descriptive, quantile_interpolates_like_numpy) {
  const std::vector<double> x{4.0, 1.0, 3.0, 2.0};
  // python3 -c "import numpy as np; print(np.quantile([4,1,3,2],[0,0.25,0.9,1]))" → [1. 1.75 3.7 4.]
  EXPECT_DOUBLE_EQ(quantile(x, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(quantile(x, 0.25), 1.75);
  EXPECT_NEAR(quantile(x, 0.9), 3.7, 1e-12);
  EXPECT_DOUBLE_EQ(quantile(x, 1.0), 4.0);
  EXPECT_THROW(quantile(x, 1.5), std::invalid_argument);
}

TEST(descriptive, mad_ignores_a_wild_outlier) {
  // median 3, absolute deviations {2, 1, 0, 1, 97} → median 1.
  EXPECT_DOUBLE_EQ(mad(std::vector<double>{1.0, 2.0, 3.0, 4.0, 100.0}), 1.0);
  EXPECT_DOUBLE_EQ(mad(std::vector<double>{5.0, 5.0, 5.0, 9.0}), 0.0);
}

TEST(descriptive, mean_and_sd) {
  const std::vector<double> x{2, 4, 4, 4, 5, 5, 7, 9};
  EXPECT_DOUBLE_EQ(mean(x), 5.0);
  // python3 -c "import numpy as np; print(np.std([2,4,4,4,5,5,7,9],ddof=1))" → 2.138089935299395
  EXPECT_NEAR(sd(x), 2.138089935299395, 1e-12);
  EXPECT_DOUBLE_EQ(sd(std::vector<double>{3.0, 3.0, 3.0}), 0.0);
}

TEST(descriptive, degenerate_inputs_give_nan) {
  const std::vector<double> none;
  EXPECT_TRUE(std::isnan(mean(none)));
  EXPECT_TRUE(std::isnan(median(none)));
  EXPECT_TRUE(std::isnan(mad(none)));
  EXPECT_TRUE(std::isnan(sd(std::vector<double>{1.0})));
  EXPECT_DOUBLE_EQ(median(std::vector<double>{7.0}), 7.0);
}

}  // namespace
}  // namespace abtest::stats
