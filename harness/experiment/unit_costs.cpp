// Unit prices of a search from the store: recorded build durations, run durations, a noise floor's σ.
#include "harness/experiment/unit_costs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "harness/experiment/experiment.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/stats/descriptive.hpp"

namespace abtest {

namespace {

bool is_seconds(const std::string& metric) { return metric.size() > 2 && metric.compare(metric.size() - 2, 2, "_s") == 0; }

// The pooled within-arm sd of ln(metric) over an experiment's measured samples; NaN without two per arm.
double pooled_log_sd(const std::vector<sample>& samples, const std::string& metric) {
  std::map<int, std::vector<double>> by_arm;
  for (const auto& s : samples)
    if (!s.warmup && s.status == sample_status::ok)
      if (const auto it = s.metrics.find(metric); it != s.metrics.end() && it->second > 0.0) by_arm[s.arm].push_back(std::log(it->second));
  double squares = 0.0, df = 0.0;
  for (const auto& [arm, x] : by_arm) {
    if (x.size() < 2) continue;
    double mean = 0.0;
    for (double v : x) mean += v / static_cast<double>(x.size());
    for (double v : x) squares += (v - mean) * (v - mean);
    df += static_cast<double>(x.size()) - 1.0;
  }
  return df > 0.0 ? std::sqrt(squares / df) : std::nan("");
}

}  // namespace

search::unit_costs recorded_costs(db::results_store& store, const std::string& metric, const search::scenario* s) {
  search::unit_costs u;
  std::vector<std::string> basis;
  if (s) {
    u.build_s = s->document.value("build_s", 0.0);
    const auto it = s->metrics.find(metric);
    u.run_s = s->document.value("run_s", it != s->metrics.end() && is_seconds(metric) ? it->second.base : 0.0);
    basis.push_back(fmt::format("build {:.0f} s and run {:.1f} s from the scenario", u.build_s, u.run_s));
  } else {
    // Each variant's newest build on this machine into a fresh folder (as the variants to come will
    // be), the median over the variants.
    const std::int64_t machine = current_machine(store);
    std::set<std::string> keys;
    for (const auto& b : store.list_builds())
      if (b.status == db::build_status::ok && b.machine_id == machine) keys.insert(b.variant);
    std::vector<double> builds;
    for (const auto& key : keys)
      if (const auto seconds = last_build_seconds(store, key, machine, true)) builds.push_back(*seconds);
    if (!builds.empty()) u.build_s = stats::median(builds);
    basis.push_back(builds.empty() ? "no build recorded yet (builds priced at 0 s)"
                                   : fmt::format("build {:.0f} s, the median of {} variants' recorded builds", u.build_s,
                                                 builds.size()));
    const std::string bench = benchmark_of(metric);
    for (const auto& e : store.list_experiments(std::nullopt, 20)) {
      std::vector<double> runs;
      for (const auto& sample : store.list_samples(e.id))
        if (sample.benchmark == bench && !sample.warmup && sample.duration_s) runs.push_back(*sample.duration_s);
      if (runs.empty()) continue;
      u.run_s = stats::median(runs);
      basis.push_back(fmt::format("run {:.2f} s from {}", u.run_s, e.id));
      break;
    }
    if (u.run_s == 0.0) basis.push_back("no run of " + bench + " recorded yet (runs priced at 0 s)");
  }
  bool measured = false;
  for (const auto& e : store.list_experiments(db::experiment_kind::noise_floor, 5)) {
    const double sd = pooled_log_sd(store.list_samples(e.id), metric);
    if (!std::isfinite(sd) || sd <= 0.0) continue;
    u.sigma = sd;
    basis.push_back(fmt::format("noise {:.2f}% from noise-floor {}", 100.0 * std::expm1(sd), e.id));
    measured = true;
    break;
  }
  if (!measured) basis.push_back("noise 2% assumed (no noise-floor of this metric yet)");
  u.basis = fmt::format("{}", fmt::join(basis, "; "));
  return u;
}

}  // namespace abtest
