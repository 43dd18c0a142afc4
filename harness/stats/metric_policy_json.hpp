// The manifest's metric rules as a stored plan keeps them (run_plan's "metric_rules", design §9):
// [{"pattern": "gb.*", "better": "higher", "margin": 0.03, "benchmark": true}, …], margin relative.
// Header-only: the plan (core) writes them and the reports read them back without the plan.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/stats/metric_policy.hpp"

namespace abtest::stats {

inline nlohmann::json rules_json(const std::vector<metric_rule>& rules) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rules) {
    nlohmann::json j = {{"pattern", r.pattern}};
    if (r.direction) j["better"] = to_string(*r.direction);
    if (r.margin) j["margin"] = *r.margin;
    if (r.whole_benchmark) j["benchmark"] = true;
    out.push_back(std::move(j));
  }
  return out;
}

// The rules of a stored plan's "metric_rules"; a missing or malformed entry is left out (a stored
// plan was written by rules_json, so that only happens to a hand-edited database).
inline std::vector<metric_rule> rules_from_json(const nlohmann::json& j) {
  std::vector<metric_rule> out;
  if (!j.is_array()) return out;
  for (const auto& r : j) {
    if (!r.is_object() || !r.contains("pattern") || !r["pattern"].is_string()) continue;
    metric_rule rule;
    rule.pattern = r["pattern"].get<std::string>();
    if (r.contains("better") && r["better"].is_string()) rule.direction = parse_better(r["better"].get<std::string>());
    if (r.contains("margin") && r["margin"].is_number()) rule.margin = r["margin"].get<double>();
    rule.whole_benchmark = r.value("benchmark", false);
    out.push_back(std::move(rule));
  }
  return out;
}

}  // namespace abtest::stats
