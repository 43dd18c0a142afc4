// Paired log-ratio estimate with a Student t CI: the primary estimator of design §7.
#pragma once

#include <span>
#include <vector>

#include "harness/stats/estimate.hpp"

namespace abtest::stats {

// d_r = ln V_r − ln B_r per round. Throws std::invalid_argument unless both spans have the same
// length and every value is finite and > 0 (a time or count of zero cannot be log-compared).
std::vector<double> log_differences(std::span<const double> candidate, std::span<const double> baseline);

// One-sample t on the differences d (Student 1908): estimate = mean d,
// CI = mean d ± t_{1−α/2}(n−1) · s_d/√n, two-sided p-value from t = mean d / (s_d/√n).
// Degenerate cases: n < 2 → no CI (bounds ±∞, p = 1: inconclusive by construction);
// s_d = 0 → the CI collapses to the point mean d and p = 0 if mean d ≠ 0, else 1.
log_estimate one_sample_t(std::span<const double> d, double confidence = 0.95);

// ratio = exp(mean d) with CI exp(mean d ± t · s_d/√n): one_sample_t(log_differences(V, B)).
log_estimate paired_log_ratio(std::span<const double> candidate, std::span<const double> baseline,
                              double confidence = 0.95);

}  // namespace abtest::stats
