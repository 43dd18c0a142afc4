// E-divisive means with t-test significance and merging (see e_divisive.hpp).
#include "harness/changepoint/e_divisive.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include "harness/stats/descriptive.hpp"
#include "harness/stats/welch.hpp"

namespace abtest::changepoint {
namespace {

// Sum of |a_i − a_k| over i < k, by sorting: Σ_k a_(k) (2k − n + 1) for sorted a (0-based k).
double within_sum(std::span<const double> a) {
  std::vector<double> s(a.begin(), a.end());
  std::sort(s.begin(), s.end());
  double total = 0;
  const double n = static_cast<double>(s.size());
  for (std::size_t k = 0; k < s.size(); ++k) total += s[k] * (2.0 * static_cast<double>(k) - n + 1.0);
  return total;
}

double between_sum(std::span<const double> x, std::span<const double> y) {
  double total = 0;
  for (double a : x)
    for (double b : y) total += std::abs(a - b);
  return total;
}

// Q̂(τ) of Matteson & James (2014), eq. (4) with α = 1, for the split of w at m.
double energy(std::span<const double> w, std::size_t m) {
  const auto x = w.first(m), y = w.subspan(m);
  const double nx = static_cast<double>(x.size()), ny = static_cast<double>(y.size());
  const double between = 2.0 * between_sum(x, y) / (nx * ny);
  const double wx = within_sum(x) / (nx * (nx - 1) / 2), wy = within_sum(y) / (ny * (ny - 1) / 2);
  return nx * ny / (nx + ny) * (between - wx - wy);
}

// Welch's t between x[a, t) and x[t, b), with the relative magnitude of the step.
change_point test_split(const std::vector<double>& x, std::size_t a, std::size_t t, std::size_t b) {
  const std::span<const double> all(x);
  const auto left = all.subspan(a, t - a), right = all.subspan(t, b - t);
  const auto est = stats::welch_t(right, left);
  return {t, std::expm1(est.estimate), est.p_value};
}

// The best split of segment [a, b), searched in windows of the segment.
std::optional<change_point> best_candidate(const std::vector<double>& x, std::size_t a, std::size_t b,
                                           const e_divisive_options& o) {
  std::optional<change_point> best;
  const std::size_t len = b - a;
  if (len < 2 * o.min_size) return best;
  const std::size_t w = std::min(len, std::max(o.window, 2 * o.min_size));
  const std::size_t stride = std::max<std::size_t>(1, w / 2);
  for (std::size_t s = a;; s += stride) {
    const std::size_t e = std::min(b, s + w);
    const std::size_t start = e == b ? b - w : s;  // the last window is a full one ending at b
    const std::span<const double> win(x.data() + start, e - start);
    double q_best = -1;
    std::size_t m_best = 0;
    for (std::size_t m = o.min_size; m + o.min_size <= win.size(); ++m) {
      const double q = energy(win, m);
      if (q > q_best) q_best = q, m_best = m;
    }
    if (m_best) {
      const auto c = test_split(x, start, start + m_best, e);
      if (!best || c.p_value < best->p_value) best = c;
    }
    if (e == b) break;
  }
  return best;
}

// The least-squares location of one mean shift in [a, b): argmax over τ of
// (τ−a)(b−τ)/(b−a) · (mean x[a,τ) − mean x[τ,b))², keeping min_size points a side.
std::size_t refine(const std::vector<double>& x, std::size_t a, std::size_t t, std::size_t b, std::size_t min_size) {
  if (b - a < 2 * min_size) return t;
  double total = 0;
  for (std::size_t i = a; i < b; ++i) total += x[i];
  double left = 0, best = -1;
  std::size_t arg = t;
  for (std::size_t i = a; i < b; ++i) {
    const double m = static_cast<double>(i - a), r = static_cast<double>(b - i);
    if (i - a >= min_size && b - i >= min_size) {
      const double d = left / m - (total - left) / r;
      const double score = m * r / (m + r) * d * d;
      if (score > best) best = score, arg = i;
    }
    left += x[i];
  }
  return arg;
}

}  // namespace

std::vector<change_point> e_divisive(const std::vector<double>& x, const e_divisive_options& o) {
  std::vector<std::size_t> cuts;  // accepted change points, ascending
  // 1. split until no segment has a candidate at the weak threshold
  for (;;) {
    std::optional<change_point> best;
    std::size_t a = 0;
    for (std::size_t i = 0; i <= cuts.size(); ++i) {
      const std::size_t b = i < cuts.size() ? cuts[i] : x.size();
      const auto c = best_candidate(x, a, b, o);
      if (c && (!best || c->p_value < best->p_value)) best = c;
      a = b;
    }
    if (!best || best->p_value > o.weak_pvalue) break;
    cuts.insert(std::upper_bound(cuts.begin(), cuts.end(), best->index), best->index);
  }
  // 2. merge: re-test each point between its neighbours, drop the weakest failing one, repeat.
  // Before each test the point moves to the least-squares location between its neighbours: the
  // energy argmax of a window that holds the step off-centre can be a few nights off.
  for (;;) {
    std::vector<change_point> tested;
    for (std::size_t i = 0; i < cuts.size(); ++i) {
      const std::size_t prev = i ? cuts[i - 1] : 0, next = i + 1 < cuts.size() ? cuts[i + 1] : x.size();
      const std::size_t a = std::max(prev, cuts[i] >= o.window ? cuts[i] - o.window : 0);
      const std::size_t b = std::min(next, cuts[i] + o.window);
      cuts[i] = refine(x, a, cuts[i], b, o.min_size);
      tested.push_back(test_split(x, a, cuts[i], b));
    }
    std::optional<std::size_t> worst;
    for (std::size_t i = 0; i < tested.size(); ++i) {
      const bool fails = tested[i].p_value > o.max_pvalue || std::abs(tested[i].magnitude) < o.min_magnitude;
      if (fails && (!worst || tested[i].p_value > tested[*worst].p_value)) worst = i;
    }
    if (!worst) return tested;
    cuts.erase(cuts.begin() + static_cast<std::ptrdiff_t>(*worst));
  }
}

}  // namespace abtest::changepoint
