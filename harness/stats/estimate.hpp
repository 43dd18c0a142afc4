// The common result of every two-arm estimator: a log-ratio, its confidence interval and p-value.
#pragma once

#include <cmath>
#include <limits>

namespace abtest::stats {

// All quantities are on the log scale: `estimate` is ln(candidate / baseline).
// Without a CI (too few rounds) the bounds are ±infinity and `has_ci` is false, so every verdict
// rule reads such an estimate as inconclusive without special-casing it.
struct log_estimate {
  int n = 0;                 // rounds (paired) or total samples (unpaired)
  double estimate = 0.0;     // ln ratio
  double ci_low = -std::numeric_limits<double>::infinity();
  double ci_high = std::numeric_limits<double>::infinity();
  double p_value = 1.0;      // two-sided, against ln ratio = 0
  bool has_ci = false;
  double statistic = std::numeric_limits<double>::quiet_NaN();  // t, z or T+ as the method defines
  double df = std::numeric_limits<double>::quiet_NaN();         // degrees of freedom of a t statistic
  double spread = std::numeric_limits<double>::quiet_NaN();     // sd of the per-round log differences

  double ratio() const { return std::exp(estimate); }
  double ratio_low() const { return std::exp(ci_low); }
  double ratio_high() const { return std::exp(ci_high); }
};

}  // namespace abtest::stats
