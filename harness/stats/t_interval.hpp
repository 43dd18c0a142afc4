// The Student t interval every t-based estimator ends with (paired t, Welch, the duet's crossover).
#pragma once

#include "harness/stats/estimate.hpp"

namespace abtest::stats {

// Sets e's ci_low, ci_high, statistic and p_value from e.estimate, the standard error `se` and
// e.df: estimate ± t_{1−α/2}(df) · se, two-sided p. se = 0 collapses the CI to the point, with p = 0
// (statistic ±∞) unless the estimate is 0 (p = 1, statistic 0). Marks the estimate as having a CI.
void set_t_interval(log_estimate& e, double se, double confidence);

}  // namespace abtest::stats
