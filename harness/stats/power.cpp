// Sample-size planning for paired log-ratio comparisons.
#include "harness/stats/power.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <stdexcept>

namespace abtest::stats {

double variance_upper_bound(double variance, double df, double confidence) {
  return variance * df / boost::math::quantile(boost::math::chi_squared(df), 1.0 - confidence);
}

int rounds_needed(double relative_effect, double sd_d, double alpha, double power) {
  if (!(relative_effect > -1.0) || relative_effect == 0.0 || !(sd_d >= 0.0) || !(alpha > 0.0 && alpha < 1.0) ||
      !(power > 0.0 && power < 1.0)) {
    throw std::invalid_argument(
        "error: power needs an effect e > −1, e ≠ 0, σ_d ≥ 0, α and power in (0, 1) — check the arguments");
  }
  const boost::math::normal norm;
  const double z = boost::math::quantile(norm, 1.0 - alpha / 2.0) + boost::math::quantile(norm, power);
  const double effect = std::log1p(relative_effect);
  const double n = std::ceil(z * z * sd_d * sd_d / (effect * effect));
  return std::max(2, static_cast<int>(n));
}

}  // namespace abtest::stats
