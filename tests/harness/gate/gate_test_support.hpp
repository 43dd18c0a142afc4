// What the gate's tests share: metric results and gate results made up by hand.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/gate/confirmation.hpp"

namespace abtest::gate::test {

// A metric whose head/base ratio is `ratio` with a CI of ±`half` on the log scale.
inline metric_result metric(const std::string& name, stats::verdict v, double ratio, double half = 0.01) {
  metric_result m;
  m.metric = name;
  m.verdict = v;
  m.estimate.n = 12;
  m.estimate.estimate = std::log(ratio);
  m.estimate.ci_low = m.estimate.estimate - half;
  m.estimate.ci_high = m.estimate.estimate + half;
  m.estimate.has_ci = true;
  m.base_median = 1.0;
  m.head_median = ratio;
  return m;
}

// An experiment's outcome with its metrics (rounds, early stop and budget end as given).
inline experiment_outcome outcome(std::string id, std::uint64_t seed, std::vector<metric_result> metrics, int rounds = 10,
                                  bool stopped_early = false, bool budget_ended = false) {
  experiment_outcome e;
  e.id = std::move(id);
  e.seed = seed;
  e.metrics = std::move(metrics);
  e.rounds = rounds;
  e.stopped_early = stopped_early;
  e.budget_ended = budget_ended;
  return e;
}

inline benchmark_decision timed(const std::string& name) { return {name, timing::timed, "programs differ: " + name}; }
inline benchmark_decision identical(const std::string& name) { return {name, timing::identical, "identical programs"}; }

}  // namespace abtest::gate::test
