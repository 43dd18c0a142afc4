// Welch's unequal-variance t for unpaired samples, on log values.
#pragma once

#include <span>

#include "harness/stats/estimate.hpp"

namespace abtest::stats {

// Welch (1947) t on raw values x (candidate) and y (baseline): estimate = mean x − mean y,
// SE = √(s_x²/n_x + s_y²/n_y), Welch–Satterthwaite df = SE⁴ / Σ (s_i²/n_i)²/(n_i − 1), t CI and
// two-sided p (scipy.stats.ttest_ind(equal_var=False)). Either sample with fewer than 2 values →
// no CI; SE = 0 → CI collapses to the point, p = 0 if the means differ else 1. n = n_x + n_y.
log_estimate welch_t(std::span<const double> x, std::span<const double> y, double confidence = 0.95);

// welch_t on ln candidate and ln baseline: the ratio of geometric means with its CI, for samples that
// were not taken in the same rounds. Throws std::invalid_argument on a value ≤ 0 or not finite.
log_estimate welch_log_ratio(std::span<const double> candidate, std::span<const double> baseline,
                             double confidence = 0.95);

}  // namespace abtest::stats
