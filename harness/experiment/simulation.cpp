// Scenario-driven samples and the manifest view of a scenario.
#include "harness/experiment/simulation.hpp"

#include <chrono>
#include <set>

#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"

namespace abtest {

std::optional<search::scenario> load_simulate_flag(const std::string& path) {
  if (path.empty()) return std::nullopt;
  try {
    return search::load_scenario(path);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    throw usage_error(what.rfind("error: ", 0) == 0 ? what.substr(7) : what);
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

exec::sample_outcome simulated_source::run(const arm_plan& arm, const benchmark_spec& bench, int round, bool warmup) {
  const std::string key = std::to_string(s_.seed) + "/" + std::to_string(plan_.seed) + "/" + arm.key + "/" + bench.name + "/" +
                          std::to_string(round) + (warmup ? "w" : "");
  const std::string h = sha256_hex(key);
  std::mt19937_64 rng(std::stoull(h.substr(0, 16), nullptr, 16));
  exec::sample_outcome o;
  o.status = exec::sample_status::ok;
  o.backend = "simulated";
  o.started_at_unix = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  for (const auto& [metric, _] : s_.metrics)
    if (metric.compare(0, bench.name.size() + 1, bench.name + ".") == 0)
      o.metrics[metric] = search::simulate(s_, arm.levels, metric, round, rng);
  return o;
}

}  // namespace abtest
