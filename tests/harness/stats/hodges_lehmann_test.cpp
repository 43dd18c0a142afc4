// Tests of the Hodges–Lehmann estimate, the signed-rank test (against SciPy) and the inverted CI.
#include "harness/stats/hodges_lehmann.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

namespace abtest::stats {
namespace {

const std::vector<double> d10{0.012, -0.004, 0.031, 0.008, 0.019, -0.011, 0.025, 0.003, 0.016, 0.027};

TEST(signed_rank, pmf_of_three_by_hand) {
  // Subsets of {1,2,3} by sum: 0,1,2,{3 | 1+2},4,5,6.
  const std::vector<double> expected{1, 1, 1, 2, 1, 1, 1};
  const std::vector<double> pmf = signed_rank_pmf(3);
  ASSERT_EQ(pmf.size(), expected.size());
  for (std::size_t i = 0; i < pmf.size(); ++i) EXPECT_DOUBLE_EQ(pmf[i], expected[i] / 8.0);
}

TEST(signed_rank, quantile_matches_the_published_table) {
  // Two-sided 5% critical value of T at n = 10 is 8 (P(T ≤ 8) = 0.0244): R's qsignrank(0.025, 10) = 9.
  EXPECT_EQ(signed_rank_quantile(10, 0.025), 9);
  // n = 20: table value 52 → qsignrank(0.025, 20) = 53.
  EXPECT_EQ(signed_rank_quantile(20, 0.025), 53);
}

TEST(signed_rank, exact_p_matches_scipy) {
  const log_estimate r = signed_rank_test(d10);
  // python3 -c "import scipy.stats as s; d=[0.012,-0.004,0.031,0.008,0.019,-0.011,0.025,0.003,0.016,0.027];
  //   r=s.wilcoxon(d,method='exact'); print(r.statistic,r.pvalue)" → 6.0 0.02734375
  // (SciPy reports min(T+, T−) = 6; T+ = 55 − 6.)
  EXPECT_DOUBLE_EQ(r.statistic, 49.0);
  EXPECT_NEAR(r.p_value, 0.02734375, 1e-14);
}

TEST(signed_rank, approx_p_with_zeros_and_ties_matches_scipy) {
  const std::vector<double> d{0.01, -0.02, 0.01, 0.03, 0.0, 0.02, -0.01, 0.01, 0.04, 0.02, 0.0, 0.03};
  const log_estimate r = signed_rank_test(d);
  // python3 -c "import scipy.stats as s; d=[0.01,-0.02,0.01,0.03,0.0,0.02,-0.01,0.01,0.04,0.02,0.0,0.03];
  //   r=s.wilcoxon(d,method='approx',correction=True); print(r.statistic,r.pvalue)"
  // → 8.5 0.05686662768004776
  EXPECT_EQ(r.n, 10);
  EXPECT_DOUBLE_EQ(r.statistic, 55.0 - 8.5);
  EXPECT_NEAR(r.p_value, 0.05686662768004776, 1e-12);
}

TEST(signed_rank, approx_without_ties_matches_scipy) {
  // Force the approximation through a zero: the non-zero values are d10.
  std::vector<double> d = d10;
  d.push_back(0.0);
  // python3 -c "import scipy.stats as s; d=[0.012,-0.004,0.031,0.008,0.019,-0.011,0.025,0.003,0.016,0.027];
  //   print(s.wilcoxon(d,method='approx',correction=True).pvalue)" → 0.032312911243244105
  EXPECT_NEAR(signed_rank_test(d).p_value, 0.032312911243244105, 1e-12);
}

TEST(signed_rank, all_zero_is_no_evidence) {
  const log_estimate r = signed_rank_test(std::vector<double>{0.0, 0.0, 0.0});
  EXPECT_EQ(r.n, 0);
  EXPECT_EQ(r.p_value, 1.0);
}

// Brute force: enumerate all 2^n sign patterns for the exact critical rank and take Walsh averages
// from their definition, then pick the order statistics of R's convention.
TEST(hodges_lehmann, matches_a_brute_force_computation) {
  const std::uint64_t seed = 20261202;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.02, 0.03);
  for (int n : {6, 9, 10, 14}) {
    SCOPED_TRACE(testing::Message() << "seed " << seed << " n " << n);
    std::vector<double> d(static_cast<std::size_t>(n));
    for (double& v : d) v = noise(rng);
    std::vector<double> w;
    for (int i = 0; i < n; ++i) {
      for (int j = i; j < n; ++j) w.push_back(0.5 * (d[i] + d[j]));
    }
    std::sort(w.begin(), w.end());
    const int m = static_cast<int>(w.size());
    const double hl = m % 2 ? w[m / 2] : 0.5 * (w[m / 2 - 1] + w[m / 2]);
    std::vector<int> sums;
    for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
      int s = 0;
      for (int r = 1; r <= n; ++r) s += (mask >> (r - 1)) & 1u ? r : 0;
      sums.push_back(s);
    }
    int k = 0;  // smallest x with P(T+ ≤ x) ≥ 0.025
    while (std::count_if(sums.begin(), sums.end(), [&](int s) { return s <= k; }) < 0.025 * sums.size()) ++k;
    const log_estimate e = hodges_lehmann(d);
    EXPECT_NEAR(e.estimate, hl, 1e-15);
    ASSERT_TRUE(e.has_ci);
    EXPECT_DOUBLE_EQ(e.ci_low, w[k - 1]);
    EXPECT_DOUBLE_EQ(e.ci_high, w[m - k]);
  }
}

TEST(hodges_lehmann, r_convention_at_n_10) {
  // k = qsignrank(0.025, 10) = 9 → [W_(9), W_(47)] of the 55 Walsh averages.
  // python3 -c "import numpy as np; d=[0.012,-0.004,0.031,0.008,0.019,-0.011,0.025,0.003,0.016,0.027];
  //   w=sorted((d[i]+d[j])/2 for i in range(10) for j in range(i,10)); print(np.median(w), w[8], w[46])"
  // → 0.0135 0.0025000000000000005 0.023
  const log_estimate e = hodges_lehmann(d10);
  EXPECT_NEAR(e.estimate, 0.0135, 1e-15);
  EXPECT_NEAR(e.ci_low, 0.0025, 1e-15);
  EXPECT_NEAR(e.ci_high, 0.023, 1e-15);
  EXPECT_NEAR(e.p_value, 0.02734375, 1e-14);
}

TEST(hodges_lehmann, large_samples_use_the_normal_approximation) {
  // n = 60 untied values: beyond the exact limit, the approximate critical rank must land within one
  // rank of the exact one (which the pmf still gives at n = 60).
  const std::uint64_t seed = 7;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.01, 0.02);
  std::vector<double> d(60);
  for (double& v : d) v = noise(rng);
  const log_estimate e = hodges_lehmann(d);
  ASSERT_TRUE(e.has_ci);
  const std::vector<double> w = walsh_averages(d);
  const int exact_k = signed_rank_quantile(60, 0.025);
  const auto k_low = std::find(w.begin(), w.end(), e.ci_low) - w.begin() + 1;
  const auto k_high = w.end() - std::find(w.begin(), w.end(), e.ci_high);
  EXPECT_NEAR(static_cast<double>(k_low), exact_k, 1.0) << "seed " << seed;
  EXPECT_EQ(k_low, k_high) << "seed " << seed;
}

TEST(hodges_lehmann, degenerate_cases) {
  const log_estimate same = hodges_lehmann(std::vector<double>{0.03, 0.03, 0.03, 0.03});
  EXPECT_TRUE(same.has_ci);
  EXPECT_DOUBLE_EQ(same.estimate, 0.03);
  EXPECT_DOUBLE_EQ(same.ci_low, 0.03);
  EXPECT_DOUBLE_EQ(same.ci_high, 0.03);
  const log_estimate zeros = hodges_lehmann(std::vector<double>{0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(zeros.estimate, 0.0);
  EXPECT_DOUBLE_EQ(zeros.ci_low, 0.0);
  EXPECT_DOUBLE_EQ(zeros.ci_high, 0.0);
  EXPECT_EQ(zeros.p_value, 1.0);
  // Five distinct values cannot reach 95%: P(T+ = 0) = 1/32 > 0.025.
  EXPECT_FALSE(hodges_lehmann(std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5}).has_ci);
  EXPECT_FALSE(hodges_lehmann(std::vector<double>{}).has_ci);
}

}  // namespace
}  // namespace abtest::stats
