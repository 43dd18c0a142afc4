// JSON form of a run plan (stored in experiment.config) and the seeded per-round order.
#include "harness/core/plan.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "harness/stats/metric_policy_json.hpp"

namespace abtest {

stats::metric_policy run_plan::policy(const std::string& metric) const {
  return stats::resolve_policy(metric_rules, metric, margin);
}

nlohmann::json run_plan::to_json() const {
  nlohmann::json arms_json = nlohmann::json::array();
  for (const auto& a : arms) {
    nlohmann::json j = {{"key", a.key}, {"levels", a.levels}, {"role", a.role}, {"bin", a.bin.string()},
                        {"binaries_digest", a.binaries_digest}};
    if (a.build_id) j["build_id"] = *a.build_id;
    if (!a.programs.empty()) {
      j["programs"] = nlohmann::json::object();
      for (const auto& [t, p] : a.programs) j["programs"][t] = p.string();
    }
    if (!a.env.empty()) {
      j["env"] = nlohmann::json::object();
      for (const auto& [k, val] : a.env) j["env"][k] = val ? nlohmann::json(*val) : nlohmann::json(nullptr);  // null: unset
    }
    if (a.layout >= 0) j["layout"] = {{"index", a.layout}, {"seed", a.layout_seed}};
    arms_json.push_back(std::move(j));
  }
  nlohmann::json out = {{"kind", kind},       {"arms", arms_json},         {"benchmarks", benchmarks}, {"params", params},
          {"rounds", rounds},   {"adaptive", adaptive},      {"min_rounds", min_rounds}, {"warmups", warmups},
          {"seed", seed},       {"margin", margin},          {"pin", pin},               {"simulate", simulate},
          {"monitor_metrics", monitor_metrics}, {"layouts", layouts},      {"duet", duet}};
  if (!metric_rules.empty()) out["metric_rules"] = stats::rules_json(metric_rules);
  return out;
}

run_plan run_plan::from_json(const nlohmann::json& j) {
  run_plan p;
  p.kind = j.at("kind").get<std::string>();
  for (const auto& a : j.at("arms")) {
    arm_plan arm;
    arm.key = a.at("key").get<std::string>();
    arm.levels = a.at("levels").get<std::map<std::string, std::string>>();
    arm.role = a.at("role").get<std::string>();
    arm.bin = a.at("bin").get<std::string>();
    arm.binaries_digest = a.value("binaries_digest", "");
    if (a.contains("build_id")) arm.build_id = a["build_id"].get<int64_t>();
    if (a.contains("programs"))
      for (const auto& [t, p] : a["programs"].items()) arm.programs[t] = p.get<std::string>();
    if (a.contains("env"))
      for (const auto& [k, val] : a["env"].items())
        arm.env[k] = val.is_null() ? std::nullopt : std::optional<std::string>(val.get<std::string>());
    if (a.contains("layout")) {
      arm.layout = a["layout"].at("index").get<int>();
      arm.layout_seed = a["layout"].at("seed").get<std::uint64_t>();
    }
    p.arms.push_back(std::move(arm));
  }
  p.benchmarks = j.at("benchmarks").get<std::vector<std::string>>();
  p.params = j.at("params").get<std::map<std::string, std::string>>();
  p.rounds = j.at("rounds").get<int>();
  p.adaptive = j.at("adaptive").get<bool>();
  p.min_rounds = j.value("min_rounds", 10);
  p.warmups = j.at("warmups").get<int>();
  p.seed = j.at("seed").get<uint64_t>();
  p.margin = j.at("margin").get<double>();
  p.pin = j.value("pin", "");
  p.simulate = j.value("simulate", "");
  p.monitor_metrics = j.value("monitor_metrics", std::vector<std::string>{});
  p.layouts = j.value("layouts", 0);
  p.duet = j.value("duet", false);
  // Plans stored before metric rules were kept have none: their metrics are judged by inference and `margin`.
  if (j.contains("metric_rules")) p.metric_rules = stats::rules_from_json(j["metric_rules"]);
  return p;
}

std::vector<slot> round_slots(const run_plan& plan, int round, bool warmup) {
  std::vector<slot> slots;
  for (int a = 0; a < static_cast<int>(plan.arms.size()); ++a)
    for (const auto& b : plan.benchmarks) slots.push_back({a, b, round, warmup, 0});
  // SplitMix-style mixing of (seed, round, warmup) so neighbouring rounds get unrelated orders.
  uint64_t z = plan.seed + 0x9e3779b97f4a7c15ULL * (2 * static_cast<uint64_t>(round) + (warmup ? 1 : 0) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  std::mt19937_64 rng(z ^ (z >> 31));
  std::shuffle(slots.begin(), slots.end(), rng);
  for (int i = 0; i < static_cast<int>(slots.size()); ++i) slots[i].position = i;
  return slots;
}

std::vector<std::vector<int>> variant_groups(const run_plan& plan) {
  const int n = static_cast<int>(plan.arms.size());
  const int per = plan.layouts >= 1 ? plan.layouts : 1;
  std::vector<std::vector<int>> groups;
  for (int a = 0; a < n; ++a) {
    if (a % per == 0) groups.emplace_back();
    groups.back().push_back(a);
  }
  return groups;
}

int duet_partner(const run_plan& plan, int arm) {
  const int n = static_cast<int>(plan.arms.size());
  const int per = plan.layouts >= 1 ? plan.layouts : 1;
  if (n != 2 * per) throw std::invalid_argument("a duet compares exactly two variants (a baseline and one candidate)");
  return arm < per ? arm + per : arm - per;
}

}  // namespace abtest
