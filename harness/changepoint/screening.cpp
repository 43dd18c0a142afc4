// Hampel filter for history series (see screening.hpp).
#include "harness/changepoint/screening.hpp"

#include <algorithm>
#include <cmath>

#include "harness/stats/descriptive.hpp"

namespace abtest::changepoint {

screened_series screen_outliers(const std::vector<double>& x, const screening_options& options) {
  screened_series out{x, {}};
  const std::size_t n = x.size();
  if (n < 3) return out;
  const double global_mad = stats::mad(x);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t lo = i >= options.half_window ? i - options.half_window : 0;
    const std::size_t hi = std::min(n, i + options.half_window + 1);
    const std::vector<double> w(x.begin() + static_cast<std::ptrdiff_t>(lo), x.begin() + static_cast<std::ptrdiff_t>(hi));
    const double m = stats::median(w);
    double mad = stats::mad(w);
    if (mad == 0) mad = global_mad;
    if (mad == 0) continue;
    if (std::abs(x[i] - m) > options.k * 1.4826 * mad) {
      out.values[i] = m;
      out.outliers.push_back(i);
    }
  }
  return out;
}

}  // namespace abtest::changepoint
