// The gate's two experiments: time what the change affects, then rerun what moved to confirm it.
#include "harness/gate/confirmation.hpp"

#include <algorithm>

namespace abtest::gate {

const char* to_string(confirmation c) {
  static constexpr const char* names[] = {"confirmed", "unconfirmed", "not_checked"};  // in the enum's order
  return names[static_cast<int>(c)];
}

std::uint64_t confirmation_seed(std::uint64_t seed) {
  const std::uint64_t next = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return next == seed ? next + 1 : next;
}

bool moved(const metric_result& m) {
  return (m.verdict == stats::verdict::slower || m.verdict == stats::verdict::faster) && !m.immaterial;
}

bool reported(const changed_metric& c) { return c.state != confirmation::unconfirmed; }

std::vector<std::string> gate_result::invalid_metrics() const {
  std::vector<std::string> out;
  if (first)
    for (const auto& m : first->metrics)
      if (m.verdict == stats::verdict::invalid) out.push_back(m.metric);
  return out;
}

bool gate_result::any_failed() const { return (first && first->failed) || (second && second->failed); }

int gate_result::regressions() const {
  return static_cast<int>(std::count_if(changed.begin(), changed.end(), [](const changed_metric& c) {
    return reported(c) && c.first.verdict == stats::verdict::slower;
  }));
}

int gate_result::improvements() const {
  return static_cast<int>(std::count_if(changed.begin(), changed.end(), [](const changed_metric& c) {
    return reported(c) && c.first.verdict == stats::verdict::faster;
  }));
}

int gate_result::unconfirmed() const {
  return static_cast<int>(
      std::count_if(changed.begin(), changed.end(), [](const changed_metric& c) { return c.state == confirmation::unconfirmed; }));
}

gate_result run_gate(std::vector<benchmark_decision> benchmarks, const gate_options& options, const experiment_fn& measure) {
  gate_result r;
  r.benchmarks = std::move(benchmarks);
  r.confirm = options.confirm;
  const auto timed = timed_benchmarks(r.benchmarks);
  if (timed.empty()) return r;
  r.first = measure({timed, options.seed, 0});
  std::vector<std::string> to_confirm;  // the benchmarks of the moved metrics, in timed order
  for (const auto& m : r.first->metrics) {
    if (!moved(m)) continue;
    r.changed.push_back({m, std::nullopt, confirmation::not_checked});
    const std::string bench = m.metric.substr(0, m.metric.find('.'));
    if (std::find(to_confirm.begin(), to_confirm.end(), bench) == to_confirm.end()) to_confirm.push_back(bench);
  }
  if (r.changed.empty() || options.confirm == confirm_mode::none) return r;
  std::sort(to_confirm.begin(), to_confirm.end(), [&](const std::string& a, const std::string& b) {
    return std::find(timed.begin(), timed.end(), a) < std::find(timed.begin(), timed.end(), b);
  });
  r.second = measure({to_confirm, confirmation_seed(options.seed), 1});
  for (auto& c : r.changed) {
    const auto it = std::find_if(r.second->metrics.begin(), r.second->metrics.end(),
                                 [&](const metric_result& m) { return m.metric == c.first.metric; });
    if (it != r.second->metrics.end()) c.second = *it;
    // The same direction, decisively: the second experiment's CI excludes 1 on the same side.
    c.state = it != r.second->metrics.end() && it->verdict == c.first.verdict ? confirmation::confirmed
                                                                              : confirmation::unconfirmed;
  }
  return r;
}

}  // namespace abtest::gate
