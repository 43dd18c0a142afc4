// Scenario-driven samples and the manifest view of a scenario.
#include "harness/experiment/simulation.hpp"

#include <chrono>
#include <cmath>
#include <set>

#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"

namespace abtest {

std::optional<search::scenario> load_simulate_flag(const std::string& path) {
  if (path.empty()) return std::nullopt;
  try {
    return search::load_scenario(path);
  } catch (const std::exception& e) {
    throw usage_error_from(e);
  }
}

manifest manifest_from_scenario(const search::scenario& s, const std::filesystem::path& file) {
  manifest m;
  m.path = std::filesystem::absolute(file);
  m.dir = std::filesystem::current_path();
  m.project = "simulated:" + file.filename().string();
  for (const auto& t : s.toggles) {
    toggle_spec spec;
    spec.id = t.id;
    spec.option = "SIMULATED_" + t.id;
    spec.levels = t.levels;
    spec.on = t.on.empty() ? t.levels.back() : t.on;
    m.toggles.push_back(std::move(spec));
  }
  std::set<std::string> benches;
  for (const auto& [metric, _] : s.metrics) benches.insert(metric.substr(0, metric.find('.')));
  for (const auto& name : benches) {
    benchmark_spec b;
    b.name = name;
    b.command = {"(simulated)"};
    m.benchmarks.push_back(std::move(b));
  }
  return m;
}

namespace {

std::mt19937_64 seeded(const std::string& key) {
  return std::mt19937_64(std::stoull(sha256_hex(key).substr(0, 16), nullptr, 16));
}

double normal(std::mt19937_64& rng, double cv) {
  return cv > 0.0 ? std::normal_distribution<double>(0.0, std::log1p(cv))(rng) : 0.0;
}

}  // namespace

sample simulated_source::draw(const arm_plan& arm, const benchmark_spec& bench, int round, bool warmup,
                              const std::string& moment) const {
  const std::string seeds = std::to_string(s_.seed) + "/" + std::to_string(plan_.seed) + "/";
  const std::string when = "/" + bench.name + "/" + std::to_string(round) + (warmup ? "w" : "");
  // Sample keys are those of the arm's own runs without layouts, so a scenario without layout_cv
  // or shared_noise_cv draws exactly what it always drew.
  const std::string arm_id = arm.key + (arm.layout >= 0 ? "#" + std::to_string(arm.layout) : "");
  std::mt19937_64 rng = seeded(seeds + arm_id + when);
  sample o;
  o.status = sample_status::ok;
  o.backend = "simulated";
  o.started_at = std::chrono::system_clock::now();
  o.duration_s = 0.0;  // no process ran …
  for (const auto& [metric, model] : s_.metrics) {
    if (metric.compare(0, bench.name.size() + 1, bench.name + ".") != 0) continue;
    // … unless the scenario models how long one would have (metric_model::run_s, design §7).
    if (const double t = search::simulated_run_s(s_, arm.levels, metric); std::isfinite(t)) o.duration_s = t;
    double value = search::simulate(s_, arm.levels, metric, round, rng);
    if (model.layout_cv > 0.0) {
      // The layout a build got: fixed for the variant's own link, and per seed for relinked ones.
      std::mt19937_64 layout = seeded(std::to_string(s_.seed) + "/layout/" + arm.key + "/" +
                                      (arm.layout >= 0 ? std::to_string(arm.layout_seed) : "own") + "/" + metric);
      value *= std::exp(normal(layout, model.layout_cv));
    }
    if (model.shared_noise_cv > 0.0) {
      std::mt19937_64 now = seeded(seeds + "moment/" + moment + when + "/" + metric);
      value *= std::exp(normal(now, model.shared_noise_cv));
    }
    o.metrics[metric] = value;
  }
  return o;
}

sample simulated_source::run(const arm_plan& arm, const benchmark_spec& bench, int round, bool warmup) {
  return draw(arm, bench, round, warmup, arm.key + "#" + std::to_string(arm.layout));
}

std::pair<sample, sample> simulated_source::run_pair(const arm_plan& a, const arm_plan& b, const benchmark_spec& bench,
                                                    int round, bool warmup) {
  const std::string pair = "duet/" + std::to_string(std::min(a.layout, b.layout));
  return {draw(a, bench, round, warmup, pair), draw(b, bench, round, warmup, pair)};
}

}  // namespace abtest
