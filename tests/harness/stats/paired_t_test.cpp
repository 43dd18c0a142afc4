// Tests of the paired log-ratio t estimate against SciPy.
#include "harness/stats/paired_t.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace abtest::stats {
namespace {

const std::vector<double> candidate{4.15, 4.20, 4.11, 4.18, 4.09, 4.22, 4.17, 4.13};
const std::vector<double> baseline{3.91, 3.95, 3.98, 3.90, 3.93, 3.96, 3.89, 3.94};

TEST(paired_t, matches_scipy_ttest_rel_on_logs) {
  const log_estimate e = paired_log_ratio(candidate, baseline);
  // python3 -c "import numpy as np,scipy.stats as s; V=[4.15,4.20,4.11,4.18,4.09,4.22,4.17,4.13];
  //   B=[3.91,3.95,3.98,3.90,3.93,3.96,3.89,3.94]; r=s.ttest_rel(np.log(V),np.log(B));
  //   ci=r.confidence_interval(0.95); print(r.statistic,r.pvalue,ci.low,ci.high,np.mean(np.log(V)-np.log(B)))"
  // → 11.21108459463974 1.0022427298717952e-05 0.043647654826607346 0.06698134968164546 0.0553145022541264
  EXPECT_EQ(e.n, 8);
  EXPECT_TRUE(e.has_ci);
  EXPECT_NEAR(e.estimate, 0.0553145022541264, 1e-12);
  EXPECT_NEAR(e.statistic, 11.21108459463974, 1e-9);
  EXPECT_NEAR(e.p_value, 1.0022427298717952e-05, 1e-12);
  EXPECT_NEAR(e.ci_low, 0.043647654826607346, 1e-10);
  EXPECT_NEAR(e.ci_high, 0.06698134968164546, 1e-10);
  EXPECT_NEAR(e.ratio(), std::exp(0.0553145022541264), 1e-12);
  EXPECT_DOUBLE_EQ(e.df, 7.0);
}

TEST(paired_t, one_sample_with_other_confidence) {
  const std::vector<double> d{0.012, -0.004, 0.031, 0.008, 0.019, -0.011, 0.025, 0.003, 0.016, 0.027};
  const log_estimate e = one_sample_t(d, 0.90);
  // python3 -c "import scipy.stats as s; d=[0.012,-0.004,0.031,0.008,0.019,-0.011,0.025,0.003,0.016,0.027];
  //   r=s.ttest_1samp(d,0); ci=r.confidence_interval(0.9); print(r.statistic,r.pvalue,ci.low,ci.high)"
  // → 2.9004929169994234 0.017581257399638655 0.004636793878700453 0.020563206121299547
  EXPECT_NEAR(e.statistic, 2.9004929169994234, 1e-9);
  EXPECT_NEAR(e.p_value, 0.017581257399638655, 1e-10);
  EXPECT_NEAR(e.ci_low, 0.004636793878700453, 1e-10);
  EXPECT_NEAR(e.ci_high, 0.020563206121299547, 1e-10);
}

TEST(paired_t, fewer_than_two_rounds_has_no_ci) {
  const log_estimate one = paired_log_ratio(std::vector<double>{2.0}, std::vector<double>{1.0});
  EXPECT_FALSE(one.has_ci);
  EXPECT_NEAR(one.estimate, std::log(2.0), 1e-15);
  EXPECT_TRUE(std::isinf(one.ci_low) && one.ci_low < 0);
  EXPECT_TRUE(std::isinf(one.ci_high) && one.ci_high > 0);
  EXPECT_EQ(one.p_value, 1.0);
  EXPECT_FALSE(one_sample_t(std::vector<double>{}).has_ci);
}

TEST(paired_t, zero_variance_collapses_the_ci) {
  const log_estimate shifted = one_sample_t(std::vector<double>{0.05, 0.05, 0.05, 0.05});
  EXPECT_TRUE(shifted.has_ci);
  EXPECT_DOUBLE_EQ(shifted.ci_low, 0.05);
  EXPECT_DOUBLE_EQ(shifted.ci_high, 0.05);
  EXPECT_EQ(shifted.p_value, 0.0);
  const log_estimate flat = one_sample_t(std::vector<double>{0.0, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(flat.ci_low, 0.0);
  EXPECT_DOUBLE_EQ(flat.ci_high, 0.0);
  EXPECT_EQ(flat.p_value, 1.0);
}

TEST(paired_t, rejects_unpaired_or_non_positive_input) {
  EXPECT_THROW(paired_log_ratio(std::vector<double>{1.0, 2.0}, std::vector<double>{1.0}), std::invalid_argument);
  EXPECT_THROW(paired_log_ratio(std::vector<double>{1.0, 0.0}, std::vector<double>{1.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(paired_log_ratio(std::vector<double>{1.0, NAN}, std::vector<double>{1.0, 1.0}), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::stats
