// Reads and writes a verdict's metric policy (see metric_policy_text.hpp).
#include "harness/report/metric_policy_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "harness/stats/verdict.hpp"

namespace abtest::report {

nlohmann::json policy_json(const stats::metric_policy& p) {
  return {{"better", stats::to_string(p.direction)}, {"better_from", stats::to_string(p.direction_from)},
          {"margin", p.margin}, {"margin_from", stats::to_string(p.margin_from)}};
}

stats::metric_policy policy_of(const db::verdict_record& v) {
  stats::metric_policy p = stats::resolve_policy({}, v.metric, stats::default_margin);
  const auto it = v.details.find("policy");
  if (it == v.details.end() || !it->is_object()) return p;
  const nlohmann::json& j = *it;
  if (const auto b = j.contains("better") && j["better"].is_string() ? stats::parse_better(j["better"].get<std::string>()) : std::nullopt) {
    p.direction = *b;
    p.direction_from = stats::policy_source::manifest;  // stored without its source: said, not guessed
    if (j.contains("better_from") && j["better_from"].is_string())
      p.direction_from = stats::parse_policy_source(j["better_from"].get<std::string>()).value_or(p.direction_from);
  }
  if (j.contains("margin") && j["margin"].is_number()) {
    p.margin = j["margin"].get<double>();
    if (j.contains("margin_from") && j["margin_from"].is_string())
      p.margin_from = stats::parse_policy_source(j["margin_from"].get<std::string>()).value_or(p.margin_from);
  }
  return p;
}

std::string policy_note(const stats::metric_policy& p) {
  std::vector<std::string> parts;
  if (p.direction == stats::better::higher || p.direction_from == stats::policy_source::manifest)
    parts.push_back(fmt::format("better {} ({})", stats::to_string(p.direction), stats::to_string(p.direction_from)));
  if (p.margin_from == stats::policy_source::manifest) parts.push_back(fmt::format("margin {:g}% (manifest)", p.margin * 100));
  return parts.empty() ? "" : fmt::format(" · {}", fmt::join(parts, " · "));
}

}  // namespace abtest::report
