// Builds as `abtest build` prints them — planned (--dry-run) or run — for the terminal and --json.
#include "harness/report/build_output.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

namespace abtest::report {
namespace {

nlohmann::json plan_json(const build_plan& p) {
  nlohmann::json plan = nlohmann::json::array();
  for (const auto& b : p.builds) {
    nlohmann::json j = {{"variant", b.variant}, {"dir", b.dir.string()}, {"targets", b.targets}};
    if (!b.configure.empty()) j["configure"] = b.configure;
    if (b.command) {
      j["command"] = b.command->argv;
      j["env"] = b.command->env;
    }
    plan.push_back(j);
  }
  return plan;
}

std::string plan_text(const build_plan& p) {
  std::string out;
  for (const auto& b : p.builds) {
    out += fmt::format("{:<24} {}\n", b.variant, b.dir.string());
    for (const auto& line : b.handed_values) out += fmt::format("    {}\n", line);
  }
  return out;
}

nlohmann::json built_json(const built_variant& b) {
  const auto& o = b.outcome;
  nlohmann::json j = {{"variant", o.key}, {"ok", o.ok}, {"dir", o.dir.string()}, {"duration_s", o.duration_s},
                      {"build_id", b.build_id}, {"log", o.log_path.string()}, {"details", b.details}};
  for (const auto& [name, value] : {std::pair{"objects_compiled", o.cost.objects_compiled}, std::pair{"cache_hits", o.cost.cache_hits},
                                    std::pair{"cache_misses", o.cost.cache_misses}, std::pair{"links", o.cost.links}})
    j[name] = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  if (o.ok)
    for (const auto& [target, bin] : o.binaries) j["binaries"][target] = bin.sha256;
  if (!b.identical_to.empty()) j["identical_to"] = b.identical_to;
  if (!o.ok) j["log_tail"] = o.log_tail;
  return j;
}

std::string built_text(const build_result& r) {
  std::string out;
  int failed = 0;
  double total_s = 0;
  for (const auto& b : r.builds) {
    const auto& o = b.outcome;
    total_s += o.duration_s;
    if (o.ok) {
      out += fmt::format("{:<24} ok      {:6.1f} s  {}{}\n", o.key, o.duration_s, o.dir.string(),
                         b.identical_to.empty() ? "" : fmt::format("  (identical binaries to {})", b.identical_to));
    } else {
      ++failed;
      out += fmt::format("{:<24} FAILED  {:6.1f} s  {}\n{}\n", o.key, o.duration_s, o.log_path.string(), o.log_tail);
    }
  }
  if (r.builds.size() > 1)
    out += fmt::format("{} builds in {:.1f} s{}\n", r.builds.size(), total_s, failed ? fmt::format(", {} failed", failed) : "");
  return out;
}

}  // namespace

std::string render(const build_plan& p, format f) {
  if (f == format::json) return plan_json(p).dump(2) + "\n";
  if (f == format::terminal) return plan_text(p);
  throw std::invalid_argument("build --dry-run has no markdown or HTML output");
}

std::string render(const build_result& r, format f) {
  if (f == format::json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& b : r.builds) out.push_back(built_json(b));
    return out.dump(2) + "\n";
  }
  if (f == format::terminal) return built_text(r);
  throw std::invalid_argument("build has no markdown or HTML output — `abtest show` lists an experiment's builds");
}

}  // namespace abtest::report
