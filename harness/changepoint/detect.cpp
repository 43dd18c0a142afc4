// The change-point pipeline of one series (see detect.hpp).
#include "harness/changepoint/detect.hpp"

#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

#include "harness/stats/welch.hpp"

namespace abtest::changepoint {

std::string_view to_string(method m) { return m == method::pelt ? "pelt" : "e-divisive"; }

method parse_method(std::string_view text) {
  if (text == "e-divisive") return method::e_divisive;
  if (text == "pelt") return method::pelt;
  throw std::invalid_argument("unknown change-point method \"" + std::string(text) + "\" — use e-divisive or pelt");
}

series_analysis analyze_series(const std::vector<double>& log_values, const detect_options& o) {
  series_analysis a;
  auto screened = screen_outliers(log_values, o.screening);
  a.screened = std::move(screened.values);
  a.outliers = std::move(screened.outliers);
  if (o.detector == method::e_divisive) {
    a.points = e_divisive(a.screened, o.e_divisive);
  } else {
    const auto cuts = pelt(a.screened, o.pelt);
    const std::span<const double> x(a.screened);
    for (std::size_t i = 0; i < cuts.size(); ++i) {
      const std::size_t lo = i ? cuts[i - 1] : 0, hi = i + 1 < cuts.size() ? cuts[i + 1] : x.size();
      const auto est = stats::welch_t(x.subspan(cuts[i], hi - cuts[i]), x.subspan(lo, cuts[i] - lo));
      const double magnitude = std::expm1(est.estimate);
      if (std::abs(magnitude) >= o.e_divisive.min_magnitude) a.points.push_back({cuts[i], magnitude, est.p_value});
    }
  }
  a.cusum = cusum_latest(a.screened, a.points.empty() ? 0 : a.points.back().index, o.cusum);
  return a;
}

}  // namespace abtest::changepoint
