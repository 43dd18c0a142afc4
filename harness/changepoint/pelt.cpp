// PELT with the MBIC penalty (see pelt.hpp).
#include "harness/changepoint/pelt.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "harness/stats/descriptive.hpp"

namespace abtest::changepoint {

std::vector<std::size_t> pelt(const std::vector<double>& x, const pelt_options& o) {
  const std::size_t n = x.size();
  if (n < 2 * o.min_size) return {};
  std::vector<double> dx(n - 1);
  for (std::size_t i = 1; i < n; ++i) dx[i - 1] = x[i] - x[i - 1];
  const double sigma = 1.4826 * stats::mad(dx) / std::sqrt(2.0);
  if (!(sigma > 0)) return {};
  // prefix sums of x and x² on the standardised scale, so C(x[s,t)) is O(1)
  std::vector<double> s1(n + 1, 0), s2(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const double z = x[i] / sigma;
    s1[i + 1] = s1[i] + z;
    s2[i + 1] = s2[i] + z * z;
  }
  auto cost = [&](std::size_t s, std::size_t t) {
    const double m = static_cast<double>(t - s), sum = s1[t] - s1[s];
    return s2[t] - s2[s] - sum * sum / m;
  };
  const double beta = 3.0 * std::log(static_cast<double>(n));
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> f(n + 1, inf);
  std::vector<std::size_t> last(n + 1, 0);
  f[0] = -beta;
  std::vector<std::size_t> candidates{0};
  for (std::size_t t = o.min_size; t <= n; ++t) {
    double best = inf;
    std::size_t arg = 0;
    for (std::size_t s : candidates) {
      if (t - s < o.min_size) continue;
      const double v = f[s] + cost(s, t) + beta;
      if (v < best) best = v, arg = s;
    }
    f[t] = best;
    last[t] = arg;
    std::vector<std::size_t> kept;
    for (std::size_t s : candidates)
      if (t - s < o.min_size || f[s] + cost(s, t) <= f[t]) kept.push_back(s);
    if (best < inf) kept.push_back(t);
    candidates = std::move(kept);
  }
  std::vector<std::size_t> cuts;
  for (std::size_t t = n; t > 0 && last[t] > 0; t = last[t]) cuts.push_back(last[t]);
  std::reverse(cuts.begin(), cuts.end());
  return cuts;
}

}  // namespace abtest::changepoint
