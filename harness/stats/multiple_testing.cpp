// Holm–Bonferroni and Benjamini–Hochberg adjustments.
#include "harness/stats/multiple_testing.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace abtest::stats {

namespace {
std::vector<std::size_t> ascending_order(std::span<const double> p) {
  for (double v : p) {
    if (!(v >= 0.0 && v <= 1.0)) {
      throw std::invalid_argument("error: p-values must lie in [0, 1] — check the tests that produced them");
    }
  }
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  return order;
}
}  // namespace

std::vector<double> holm_adjust(std::span<const double> p) {
  const std::vector<std::size_t> order = ascending_order(p);
  const double m = static_cast<double>(p.size());
  std::vector<double> out(p.size());
  double running = 0.0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    running = std::max(running, std::min(1.0, (m - static_cast<double>(i)) * p[order[i]]));
    out[order[i]] = running;
  }
  return out;
}

std::vector<double> benjamini_hochberg(std::span<const double> p) {
  const std::vector<std::size_t> order = ascending_order(p);
  const double m = static_cast<double>(p.size());
  std::vector<double> out(p.size());
  double running = 1.0;
  for (std::size_t i = order.size(); i-- > 0;) {
    running = std::min(running, m * p[order[i]] / static_cast<double>(i + 1));
    out[order[i]] = running;
  }
  return out;
}

}  // namespace abtest::stats
