// Welch's unequal-variance t for unpaired samples.
#include "harness/stats/welch.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "harness/stats/descriptive.hpp"
#include "harness/stats/t_interval.hpp"

namespace abtest::stats {

namespace {
std::vector<double> logs(std::span<const double> v) {
  std::vector<double> out;
  out.reserve(v.size());
  for (double x : v) {
    if (!(std::isfinite(x) && x > 0.0)) {
      throw std::invalid_argument(
          "error: log-ratio needs finite positive values — exclude failed samples or metrics that can be 0");
    }
    out.push_back(std::log(x));
  }
  return out;
}
}  // namespace

log_estimate welch_t(std::span<const double> x, std::span<const double> y, double confidence) {
  log_estimate out;
  out.n = static_cast<int>(x.size() + y.size());
  if (x.empty() || y.empty()) return out;
  out.estimate = mean(x) - mean(y);
  if (x.size() < 2 || y.size() < 2) return out;
  const double nx = static_cast<double>(x.size());
  const double ny = static_cast<double>(y.size());
  const double vx = std::pow(sd(x), 2) / nx;
  const double vy = std::pow(sd(y), 2) / ny;
  const double se = std::sqrt(vx + vy);
  if (se > 0.0) out.df = (vx + vy) * (vx + vy) / (vx * vx / (nx - 1.0) + vy * vy / (ny - 1.0));
  set_t_interval(out, se, confidence);
  return out;
}

log_estimate welch_log_ratio(std::span<const double> candidate, std::span<const double> baseline,
                             double confidence) {
  const std::vector<double> lx = logs(candidate);
  const std::vector<double> ly = logs(baseline);
  return welch_t(lx, ly, confidence);
}

}  // namespace abtest::stats
