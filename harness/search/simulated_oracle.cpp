// The simulated oracle: scenario samples through the real statistics.
#include "harness/search/simulated_oracle.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace abtest::search {

simulated_oracle::simulated_oracle(const scenario& s, std::string metric, std::uint64_t seed,
                                   simulated_oracle_options options)
    : scenario_(s), metric_(std::move(metric)), rng_(seed), options_(options) {}

comparison simulated_oracle::compare(const levels& from, const levels& to, const comparison_request& request) {
  stats::sequential_options o = options_.first;
  o.margin = request.margin;
  o.alpha = request.alpha;
  if (request.attempt > 0) o.max_rounds = options_.retry_max_rounds;
  o.known_variance = request.known_variance;
  if (request.tau > 0.0) o.tau = request.tau;
  if (request.min_rounds > 0) o.min_rounds = std::min(request.min_rounds, o.max_rounds);
  stats::adaptive_monitor monitor(o);
  while (!monitor.should_stop() &&
         !(monitor.rounds() >= o.min_rounds && settled_on_side(monitor.current(), request.settle_side, request.margin))) {
    const double b = simulate(scenario_, from, metric_, round_, rng_);
    const double v = simulate(scenario_, to, metric_, round_, rng_);
    ++round_;
    monitor.add(std::log(v) - std::log(b));
  }
  comparison c;
  c.estimate = monitor.current();
  c.verdict = monitor.current_verdict().value;
  c.rounds = monitor.rounds();
  c.runs = 2 * c.rounds;
  c.from_run_s = simulated_run_s(scenario_, from, metric_);
  c.to_run_s = simulated_run_s(scenario_, to, metric_);
  return c;
}

matrix_result simulated_oracle::run_matrix(const std::vector<levels>& configs, int rounds) {
  matrix_result m;
  m.log_values.assign(configs.size(), std::vector<double>(static_cast<std::size_t>(rounds)));
  for (int r = 0; r < rounds; ++r, ++round_) {
    for (std::size_t c = 0; c < configs.size(); ++c) {
      m.log_values[c][static_cast<std::size_t>(r)] = std::log(simulate(scenario_, configs[c], metric_, round_, rng_));
    }
  }
  m.runs = rounds * static_cast<int>(configs.size());
  for (const levels& c : configs) m.run_s.push_back(simulated_run_s(scenario_, c, metric_));
  return m;
}

}  // namespace abtest::search
