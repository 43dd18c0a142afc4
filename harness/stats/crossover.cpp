// The duet's swap-pair fit: pair means, then least squares on [1, order] (see crossover.hpp).
#include "harness/stats/crossover.hpp"

#include <cmath>
#include <map>
#include <stdexcept>
#include <vector>

#include "harness/stats/descriptive.hpp"
#include "harness/stats/t_interval.hpp"

namespace abtest::stats {

log_estimate crossover_t(std::span<const double> d, std::span<const double> core, std::span<const double> order,
                         std::span<const int> pair, double confidence) {
  if (d.size() != core.size() || d.size() != order.size() || d.size() != pair.size())
    throw std::invalid_argument("error: crossover_t needs a core, an order sign and a pair for every difference");
  struct members {
    std::vector<std::size_t> first_core, second_core;
  };
  std::map<int, members> pairs;
  for (std::size_t i = 0; i < d.size(); ++i) (core[i] > 0 ? pairs[pair[i]].first_core : pairs[pair[i]].second_core).push_back(i);
  std::vector<double> means, orders;
  for (const auto& [id, m] : pairs) {
    if (m.first_core.size() != 1 || m.second_core.size() != 1) continue;
    const std::size_t a = m.first_core[0], b = m.second_core[0];
    if (order[a] != order[b]) continue;  // not a pair of the schedule
    means.push_back((d[a] + d[b]) / 2);
    orders.push_back(order[a]);
  }
  log_estimate out;
  out.n = static_cast<int>(2 * means.size());
  if (means.empty()) {
    out.n = static_cast<int>(d.size());
    if (!d.empty()) out.estimate = mean(d);
    return out;
  }
  // Least squares of the pair means on [1, order], centred: β₁ = Sxy / Sxx, β₀ = ȳ − β₁·ō.
  const double k = static_cast<double>(means.size());
  const double o_bar = mean(orders), m_bar = mean(means);
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < means.size(); ++i) {
    sxx += (orders[i] - o_bar) * (orders[i] - o_bar);
    sxy += (orders[i] - o_bar) * (means[i] - m_bar);
  }
  if (sxx < 1e-12) {
    out.estimate = m_bar;
    return out;
  }
  const double slope = sxy / sxx, intercept = m_bar - slope * o_bar;
  out.estimate = intercept;
  if (means.size() < 3) return out;
  double rss = 0;
  for (std::size_t i = 0; i < means.size(); ++i) {
    const double e = means[i] - intercept - slope * orders[i];
    rss += e * e;
  }
  out.df = k - 2;
  out.spread = std::sqrt(rss / out.df);
  set_t_interval(out, out.spread * std::sqrt(1 / k + o_bar * o_bar / sxx), confidence);
  return out;
}

}  // namespace abtest::stats
