// Descriptive statistics: median, quantiles, MAD, mean, sd.
#include "harness/stats/descriptive.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace abtest::stats {

namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
}

double mean(std::span<const double> x) {
  if (x.empty()) return nan;
  double sum = 0.0;
  for (double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

double sd(std::span<const double> x) {
  if (x.size() < 2) return nan;
  // Two-pass: numerically safe for the tiny spreads of log-times (values near each other).
  const double m = mean(x);
  double ss = 0.0;
  for (double v : x) ss += (v - m) * (v - m);
  return std::sqrt(ss / static_cast<double>(x.size() - 1));
}

double quantile(std::span<const double> x, double p) {
  if (x.empty()) return nan;
  if (!(p >= 0.0 && p <= 1.0)) {
    throw std::invalid_argument("error: quantile level must lie in [0, 1] — pass p between 0 and 1");
  }
  std::vector<double> s(x.begin(), x.end());
  std::sort(s.begin(), s.end());
  const double h = p * static_cast<double>(s.size() - 1);  // Hyndman & Fan type 7
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, s.size() - 1);
  return s[lo] + (h - static_cast<double>(lo)) * (s[hi] - s[lo]);
}

double median(std::span<const double> x) { return quantile(x, 0.5); }

double mad(std::span<const double> x) {
  if (x.empty()) return nan;
  const double m = median(x);
  std::vector<double> dev;
  dev.reserve(x.size());
  for (double v : x) dev.push_back(std::abs(v - m));
  return median(dev);
}

}  // namespace abtest::stats
