// Metrics and the JSON form of a count set.
#include "harness/counts/count_set.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace abtest::counts {

std::map<std::string, double> to_metrics(const count_set& c, std::string_view bench) {
  std::map<std::string, double> metrics;
  for (const std::string_view name : headline_counts) {
    if (const auto it = c.totals.find(std::string(name)); it != c.totals.end())
      metrics.emplace(fmt::format("{}.counts.{}", bench, name), static_cast<double>(it->second));
  }
  return metrics;
}

nlohmann::json to_json(const count_set& c) {
  nlohmann::json functions = nlohmann::json::array();
  for (const auto& [name, f] : c.functions)
    functions.push_back({{"name", f.name}, {"file", f.file}, {"events", f.events}});
  nlohmann::json sites = nlohmann::json::array();
  for (const alloc_site& s : c.alloc_sites)
    sites.push_back({{"where", s.where}, {"blocks", s.blocks}, {"bytes", s.bytes}});
  return {{"totals", c.totals},           {"functions", std::move(functions)},
          {"alloc_sites", std::move(sites)}, {"cache_config", c.cache_config},
          {"valgrind_version", c.valgrind_version}, {"region", c.region}, {"command", c.command}};
}

count_set count_set_from_json(const nlohmann::json& j) {
  count_set c;
  c.totals = j.at("totals").get<std::map<std::string, count>>();
  for (const nlohmann::json& f : j.at("functions")) {
    function_counts fc{f.at("name").get<std::string>(), f.at("file").get<std::string>(),
                       f.at("events").get<std::map<std::string, count>>()};
    c.functions.emplace(fc.name, std::move(fc));
  }
  for (const nlohmann::json& s : j.at("alloc_sites"))
    c.alloc_sites.push_back({s.at("where").get<std::string>(), s.at("blocks").get<count>(), s.at("bytes").get<count>()});
  c.cache_config = j.at("cache_config").get<std::string>();
  c.valgrind_version = j.at("valgrind_version").get<std::string>();
  c.region = j.at("region").get<std::string>();
  c.command = j.at("command").get<std::string>();
  return c;
}

void add_derived_events(std::map<std::string, count>& events) {
  const auto il = events.find("ILmr"), dl = events.find("DLmr"), dw = events.find("DLmw");
  if (il != events.end() && dl != events.end()) events["LLmr"] = il->second + dl->second;
  if (dw != events.end()) events["LLmw"] = dw->second;
}

std::vector<std::string> moved_counts(const count_set& a, const count_set& b, const move_thresholds& t) {
  std::vector<std::string> out;
  for (const std::string_view name : headline_counts) {
    const auto x = a.totals.find(std::string(name)), y = b.totals.find(std::string(name));
    if (x == a.totals.end() || y == b.totals.end()) continue;
    const count larger = std::max(x->second, y->second), delta = larger - std::min(x->second, y->second);
    const bool simulated = name == "D1mr" || name == "LLmr" || name == "Bcm";
    const bool moved = simulated ? delta >= t.simulated_floor && static_cast<double>(delta) > t.simulated_relative * static_cast<double>(larger)
                                 : static_cast<double>(delta) > t.work_relative * static_cast<double>(larger);
    if (moved) out.emplace_back(name);
  }
  return out;
}

}  // namespace abtest::counts
