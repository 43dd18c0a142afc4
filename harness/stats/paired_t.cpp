// Paired log-ratio estimate with a Student t CI.
#include "harness/stats/paired_t.hpp"

#include <cmath>
#include <stdexcept>

#include "harness/stats/descriptive.hpp"
#include "harness/stats/t_interval.hpp"

namespace abtest::stats {

std::vector<double> log_differences(std::span<const double> candidate, std::span<const double> baseline) {
  if (candidate.size() != baseline.size()) {
    throw std::invalid_argument(
        "error: paired comparison needs one candidate and one baseline value per round — drop rounds "
        "where either arm failed");
  }
  std::vector<double> d;
  d.reserve(candidate.size());
  for (std::size_t i = 0; i < candidate.size(); ++i) {
    const double v = candidate[i];
    const double b = baseline[i];
    if (!(std::isfinite(v) && std::isfinite(b) && v > 0.0 && b > 0.0)) {
      throw std::invalid_argument(
          "error: log-ratio needs finite positive values — exclude failed samples or metrics that can be 0");
    }
    d.push_back(std::log(v) - std::log(b));
  }
  return d;
}

log_estimate one_sample_t(std::span<const double> d, double confidence) {
  log_estimate out;
  out.n = static_cast<int>(d.size());
  if (d.empty()) return out;
  out.estimate = mean(d);
  if (d.size() < 2) return out;
  const double s = sd(d);
  const double n = static_cast<double>(d.size());
  out.spread = s;
  out.df = n - 1.0;
  set_t_interval(out, s / std::sqrt(n), confidence);
  return out;
}

log_estimate paired_log_ratio(std::span<const double> candidate, std::span<const double> baseline,
                              double confidence) {
  const std::vector<double> d = log_differences(candidate, baseline);
  return one_sample_t(d, confidence);
}

}  // namespace abtest::stats
