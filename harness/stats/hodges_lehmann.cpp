// Hodges–Lehmann estimate, Wilcoxon signed-rank test and its inverted CI.
#include "harness/stats/hodges_lehmann.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <stdexcept>

#include "harness/stats/descriptive.hpp"

namespace abtest::stats {

namespace {

// The exact distribution is used up to this many values (R and scipy ≥ 1.9 use the same cut-off);
// beyond it the normal approximation is accurate to well under 1% in the tails that matter.
constexpr int exact_limit = 50;

// Sizes of the groups of equal values in `v` (only groups larger than one matter).
std::vector<double> tie_groups(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::vector<double> groups;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j < v.size() && v[j] == v[i]) ++j;
    if (j - i > 1) groups.push_back(static_cast<double>(j - i));
    i = j;
  }
  return groups;
}

// Var(T+) under H0 with mid-ranks: n(n+1)(2n+1)/24 − Σ(t³ − t)/48 (Lehmann 1975, §3.2).
double signed_rank_sd(int n, const std::vector<double>& ties) {
  const double nn = n;
  double var = nn * (nn + 1.0) * (2.0 * nn + 1.0) / 24.0;
  for (double t : ties) var -= (t * t * t - t) / 48.0;
  return std::sqrt(std::max(var, 0.0));
}

}  // namespace

std::vector<double> signed_rank_pmf(int n) {
  if (n < 0) throw std::invalid_argument("error: signed-rank distribution needs n ≥ 0 — pass a count");
  const int m = n * (n + 1) / 2;
  std::vector<double> count(static_cast<std::size_t>(m) + 1, 0.0);
  count[0] = 1.0;
  // Add ranks one at a time: subsets of {1..r} summing to t (counts are exact in a double for n ≤ 52).
  for (int r = 1; r <= n; ++r) {
    for (int t = r * (r + 1) / 2; t >= r; --t) count[static_cast<std::size_t>(t)] += count[static_cast<std::size_t>(t - r)];
  }
  const double total = std::ldexp(1.0, n);
  for (double& c : count) c /= total;
  return count;
}

int signed_rank_quantile(int n, double p) {
  const std::vector<double> pmf = signed_rank_pmf(n);
  double cdf = 0.0;
  for (std::size_t x = 0; x < pmf.size(); ++x) {
    cdf += pmf[x];
    // A relative tolerance keeps an exact hit (F(x) == p) from being lost to rounding.
    if (cdf >= p * (1.0 - 1e-12)) return static_cast<int>(x);
  }
  return static_cast<int>(pmf.size()) - 1;
}

std::vector<double> walsh_averages(std::span<const double> d) {
  std::vector<double> w;
  w.reserve(d.size() * (d.size() + 1) / 2);
  for (std::size_t i = 0; i < d.size(); ++i) {
    for (std::size_t j = i; j < d.size(); ++j) w.push_back((d[i] + d[j]) / 2.0);
  }
  std::sort(w.begin(), w.end());
  return w;
}

log_estimate signed_rank_test(std::span<const double> d) {
  log_estimate out;
  std::vector<double> nonzero;
  for (double v : d) {
    if (v != 0.0) nonzero.push_back(v);
  }
  const int n = static_cast<int>(nonzero.size());
  out.n = n;
  out.p_value = 1.0;
  if (n == 0) {
    out.statistic = 0.0;
    return out;
  }
  out.estimate = median(nonzero);
  // Mid-ranks of |d|.
  std::vector<std::size_t> order(nonzero.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return std::abs(nonzero[a]) < std::abs(nonzero[b]); });
  std::vector<double> rank(nonzero.size());
  std::vector<double> abs_values;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j < order.size() && std::abs(nonzero[order[j]]) == std::abs(nonzero[order[i]])) ++j;
    const double mid = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k) rank[order[k]] = mid;
    i = j;
  }
  double t_plus = 0.0;
  for (std::size_t i = 0; i < nonzero.size(); ++i) {
    if (nonzero[i] > 0.0) t_plus += rank[i];
    abs_values.push_back(std::abs(nonzero[i]));
  }
  out.statistic = t_plus;
  const std::vector<double> ties = tie_groups(abs_values);
  const bool exact = n <= exact_limit && ties.empty() && static_cast<int>(d.size()) == n;
  if (exact) {
    const std::vector<double> pmf = signed_rank_pmf(n);
    const auto t = static_cast<std::size_t>(std::lround(t_plus));
    double lower = 0.0;  // P(T+ ≤ t)
    for (std::size_t x = 0; x <= t; ++x) lower += pmf[x];
    const double upper = 1.0 - lower + pmf[t];  // P(T+ ≥ t)
    out.p_value = std::min(1.0, 2.0 * std::min(lower, upper));
    return out;
  }
  const double mu = n * (n + 1.0) / 4.0;
  const double sigma = signed_rank_sd(n, ties);
  if (sigma == 0.0) return out;
  const double diff = t_plus - mu;
  const double corrected = diff - 0.5 * ((diff > 0.0) - (diff < 0.0));
  const double z = corrected / sigma;
  const boost::math::normal norm;
  out.p_value = std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(norm, std::abs(z))));
  return out;
}

log_estimate hodges_lehmann(std::span<const double> d, double confidence) {
  log_estimate out;
  out.n = static_cast<int>(d.size());
  if (d.empty()) return out;
  const std::vector<double> w = walsh_averages(d);
  out.estimate = median(w);
  out.p_value = signed_rank_test(d).p_value;
  const int n = out.n;
  const int m = static_cast<int>(w.size());
  const double alpha_half = (1.0 - confidence) / 2.0;
  const std::vector<double> ties = tie_groups(std::vector<double>(d.begin(), d.end()));
  int k = 0;
  if (n <= exact_limit && ties.empty()) {
    k = signed_rank_quantile(n, alpha_half);
    // k = 0 means P(T+ ≤ 0) = 2^−n already exceeds α/2: the confidence is out of reach.
  } else {
    const double z = boost::math::quantile(boost::math::complement(boost::math::normal(), alpha_half));
    k = static_cast<int>(std::floor(m / 2.0 - 0.5 - z * signed_rank_sd(n, ties))) + 1;
  }
  if (k < 1) {
    if (w.front() == w.back()) {  // all d equal: every interval collapses to that value
      out.ci_low = out.ci_high = w.front();
      out.has_ci = true;
    }
    return out;
  }
  k = std::min(k, (m + 1) / 2);
  out.ci_low = w[static_cast<std::size_t>(k - 1)];
  out.ci_high = w[static_cast<std::size_t>(m - k)];
  out.has_ci = true;
  return out;
}

}  // namespace abtest::stats
