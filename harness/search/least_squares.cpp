// Ordinary least squares through the normal equations.
#include "harness/search/least_squares.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace abtest::search {

ls_fit least_squares(const std::vector<std::vector<double>>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  const std::size_t p = n ? x.front().size() : 0;
  if (n != y.size() || p == 0 || n < p) {
    throw std::invalid_argument("error: least squares needs one response per row and at least as many rows as terms — "
                                "use a design with more configurations");
  }
  std::vector<std::vector<double>> a(p, std::vector<double>(2 * p, 0.0));  // [XᵀX | I]
  std::vector<double> xty(p, 0.0);
  double scale = 0.0;
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t i = 0; i < p; ++i) {
      xty[i] += x[r][i] * y[r];
      for (std::size_t j = 0; j < p; ++j) a[i][j] += x[r][i] * x[r][j];
    }
  }
  for (std::size_t i = 0; i < p; ++i) {
    a[i][p + i] = 1.0;
    scale = std::max(scale, std::abs(a[i][i]));
  }
  for (std::size_t col = 0; col < p; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < p; ++r) {
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    }
    // Relative threshold: the design matrices hold small integers, so a pivot this small is a true zero.
    if (std::abs(a[pivot][col]) <= 1e-10 * scale) {
      throw std::invalid_argument("error: the design cannot separate these terms (aliased effects) — "
                                  "use a full factorial or drop interactions");
    }
    std::swap(a[col], a[pivot]);
    const double inv = 1.0 / a[col][col];
    for (double& v : a[col]) v *= inv;
    for (std::size_t r = 0; r < p; ++r) {
      if (r == col || a[r][col] == 0.0) continue;
      const double f = a[r][col];
      for (std::size_t c = 0; c < 2 * p; ++c) a[r][c] -= f * a[col][c];
    }
  }
  ls_fit fit;
  fit.xtx_inverse.assign(p, std::vector<double>(p));
  fit.coef.assign(p, 0.0);
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) {
      fit.xtx_inverse[i][j] = a[i][p + j];
      fit.coef[i] += a[i][p + j] * xty[j];
    }
  }
  return fit;
}

}  // namespace abtest::search
