// Tests of the Holm and Benjamini–Hochberg adjustments.
#include "harness/stats/multiple_testing.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace abtest::stats {
namespace {

const std::vector<double> p{0.01, 0.04, 0.03, 0.005, 0.2, 0.5};

TEST(multiple_testing, holm_by_hand) {
  // Holm by hand: sorted 0.005 0.01 0.03 0.04 0.2 0.5 × (6 5 4 3 2 1) = 0.03 0.05 0.12 0.12 0.4 0.5,
  // running max, back to input order.
  // python3 -c "import numpy as np; p=np.array([0.01,0.04,0.03,0.005,0.2,0.5]); o=np.argsort(p); m=len(p);
  //   h=np.minimum(1,np.maximum.accumulate((m-np.arange(m))*p[o])); r=np.empty(m); r[o]=h; print(list(r))"
  // → [0.05, 0.12, 0.12, 0.03, 0.4, 0.5]
  const std::vector<double> expected{0.05, 0.12, 0.12, 0.03, 0.4, 0.5};
  const std::vector<double> got = holm_adjust(p);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-15) << i;
}

TEST(multiple_testing, holm_caps_at_one_and_keeps_order) {
  // sorted 0.6, 0.7 × (2, 1) = 1.2 → 1, then max(1, 0.7) = 1.
  const std::vector<double> capped = holm_adjust(std::vector<double>{0.7, 0.6});
  EXPECT_DOUBLE_EQ(capped[0], 1.0);
  EXPECT_DOUBLE_EQ(capped[1], 1.0);
  // sorted 0.3, 0.6 × (2, 1) = 0.6, 0.6: the step-down max keeps the order of the raw p-values.
  const std::vector<double> got = holm_adjust(std::vector<double>{0.6, 0.3});
  EXPECT_DOUBLE_EQ(got[0], 0.6);
  EXPECT_DOUBLE_EQ(got[1], 0.6);
  EXPECT_TRUE(holm_adjust(std::vector<double>{}).empty());
  EXPECT_THROW(holm_adjust(std::vector<double>{1.5}), std::invalid_argument);
}

TEST(multiple_testing, benjamini_hochberg) {
  // SciPy 1.10 (Debian 12) predates scipy.stats.false_discovery_control (1.11), so its definition by hand:
  // python3 -c "import numpy as np; p=np.array([0.01,0.04,0.03,0.005,0.2,0.5]); o=np.argsort(p); m=len(p);
  //   q=np.minimum(1,np.minimum.accumulate((m*p[o]/np.arange(1,m+1))[::-1])[::-1]); r=np.empty(m); r[o]=q;
  //   print(list(r))" → [0.03, 0.06, 0.06, 0.03, 0.24000000000000005, 0.5]
  const std::vector<double> expected{0.03, 0.06, 0.06, 0.03, 0.24, 0.5};
  const std::vector<double> got = benjamini_hochberg(p);
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-15) << i;
}

}  // namespace
}  // namespace abtest::stats
