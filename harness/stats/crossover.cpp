// Least squares on [1, core, order] by the normal equations (3 × 3, Gauss–Jordan with pivoting).
#include "harness/stats/crossover.hpp"

#include <array>
#include <cmath>
#include <stdexcept>

#include "harness/stats/descriptive.hpp"
#include "harness/stats/t_interval.hpp"

namespace abtest::stats {

namespace {

using matrix3 = std::array<std::array<double, 3>, 3>;

// The inverse of `a`, or false when it is (numerically) singular.
bool invert(matrix3 a, matrix3& inv) {
  inv = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  for (int c = 0; c < 3; ++c) {
    int pivot = c;
    for (int r = c + 1; r < 3; ++r)
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    if (std::abs(a[pivot][c]) < 1e-9) return false;
    std::swap(a[c], a[pivot]);
    std::swap(inv[c], inv[pivot]);
    const double p = a[c][c];
    for (int k = 0; k < 3; ++k) a[c][k] /= p, inv[c][k] /= p;
    for (int r = 0; r < 3; ++r) {
      if (r == c) continue;
      const double f = a[r][c];
      for (int k = 0; k < 3; ++k) a[r][k] -= f * a[c][k], inv[r][k] -= f * inv[c][k];
    }
  }
  return true;
}

}  // namespace

log_estimate crossover_t(std::span<const double> d, std::span<const double> core, std::span<const double> order,
                         double confidence) {
  if (d.size() != core.size() || d.size() != order.size())
    throw std::invalid_argument("error: crossover_t needs a core and an order sign for every difference");
  log_estimate out;
  out.n = static_cast<int>(d.size());
  if (d.empty()) return out;
  out.estimate = mean(d);
  matrix3 xtx{};
  std::array<double, 3> xty{};
  for (std::size_t i = 0; i < d.size(); ++i) {
    const std::array<double, 3> x{1.0, core[i], order[i]};
    for (int r = 0; r < 3; ++r) {
      xty[r] += x[r] * d[i];
      for (int c = 0; c < 3; ++c) xtx[r][c] += x[r] * x[c];
    }
  }
  matrix3 inv;
  if (d.size() < 4 || !invert(xtx, inv)) return out;
  std::array<double, 3> beta{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) beta[r] += inv[r][c] * xty[c];
  double rss = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const double e = d[i] - beta[0] - beta[1] * core[i] - beta[2] * order[i];
    rss += e * e;
  }
  out.estimate = beta[0];
  out.df = static_cast<double>(d.size()) - 3.0;
  out.spread = std::sqrt(rss / out.df);
  set_t_interval(out, out.spread * std::sqrt(inv[0][0]), confidence);
  return out;
}

}  // namespace abtest::stats
