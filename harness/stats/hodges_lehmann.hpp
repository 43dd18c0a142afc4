// Robust paired estimate: Hodges–Lehmann shift with the Wilcoxon signed-rank CI and p-value.
#pragma once

#include <span>
#include <vector>

#include "harness/stats/estimate.hpp"

namespace abtest::stats {

// Exact null distribution of the Wilcoxon signed-rank statistic T+ for n untied non-zero values:
// pmf[t] = P(T+ = t), t = 0 … n(n+1)/2, by counting subsets of {1..n} with sum t
// (Wilcoxon 1945; Hollander & Wolfe 1999, §3.1).
std::vector<double> signed_rank_pmf(int n);

// Lower critical rank k = the smallest x with P(T+ ≤ x) ≥ p, as R's qsignrank(p, n).
int signed_rank_quantile(int n, double p);

// Walsh averages (d_i + d_j)/2 over i ≤ j, sorted ascending: n(n+1)/2 of them.
std::vector<double> walsh_averages(std::span<const double> d);

// Wilcoxon signed-rank test of "median d = 0", two-sided. Zeros are dropped (Wilcoxon's method,
// scipy's zero_method="wilcox"); tied |d| get mid-ranks. With ≤ 50 non-zero values, no ties and no
// zeros the p-value is exact: p = min(1, 2·min(P(T+ ≤ t), P(T+ ≥ t))) (scipy method="exact");
// otherwise the normal approximation with the tie-corrected variance
// σ² = n(n+1)(2n+1)/24 − Σ(t³ − t)/48 and a continuity correction of ½ toward the mean
// (scipy method="approx", correction=True). Fields used: n (non-zero values), statistic (T+),
// p_value; no CI. All values zero → p = 1.
log_estimate signed_rank_test(std::span<const double> d);

// Hodges–Lehmann estimate (Hodges & Lehmann 1963) = median of the Walsh averages, with the
// distribution-free CI obtained by inverting the signed-rank test (Hollander & Wolfe 1999, §3.3):
// [W_(k), W_(M+1−k)] with M = n(n+1)/2 and k = qsignrank((1−confidence)/2, n) — R's wilcox.test
// convention (conf.int = TRUE), whose achieved coverage 1 − 2·P(T+ ≤ k−1) is at least `confidence`.
// Exact k when n ≤ 50 and no two d are equal; otherwise the normal approximation
// k = ⌊M/2 − ½ − z_{1−α/2}·σ⌋ + 1 with the tie-corrected σ above (ties among the d values).
// When the requested confidence cannot be reached (n < 6 at 95%) there is no CI (has_ci false).
// p_value is signed_rank_test's; all d equal → the CI collapses to that value.
log_estimate hodges_lehmann(std::span<const double> d, double confidence = 0.95);

}  // namespace abtest::stats
