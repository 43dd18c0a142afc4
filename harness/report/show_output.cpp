// One experiment as `abtest show` prints it, and the list `abtest list` prints, for the terminal and --json.
#include "harness/report/show_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "db/time_text.hpp"
#include "harness/builder/resolved_toggles.hpp"
#include "harness/report/metric_policy_text.hpp"
#include "harness/report/verdict_json.hpp"
#include "harness/stats/metric_policy_json.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::report {

std::map<std::pair<int, std::string>, std::map<std::string, int>> sample_counts(const std::vector<sample>& samples) {
  std::map<std::pair<int, std::string>, std::map<std::string, int>> counts;
  for (const auto& s : samples) ++counts[{s.arm, s.benchmark}][std::string(to_string(s.status)) + (s.warmup ? " (warm-up)" : "")];
  return counts;
}

namespace {

const db::build_record* build_of(const experiment_view& v, const db::arm_record& a) {
  if (!a.build_id) return nullptr;
  const auto it = v.builds.find(*a.build_id);
  return it == v.builds.end() ? nullptr : &it->second;
}

nlohmann::json build_json(const db::build_record& b) {
  nlohmann::json j = {{"id", b.id}, {"dir", b.build_dir}, {"commit", b.commit_sha.value_or("")}, {"dirty", b.dirty},
                      {"duration_s", b.duration_s ? nlohmann::json(*b.duration_s) : nlohmann::json(nullptr)}, {"details", b.details}};
  for (const auto& [name, value] : {std::pair{"objects_compiled", b.objects_compiled}, std::pair{"cache_hits", b.cache_hits},
                                    std::pair{"cache_misses", b.cache_misses}, std::pair{"links", b.links}})
    j[name] = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  for (const auto& bin : b.binaries) j["binaries"][bin.target] = bin.sha256;
  return j;
}

nlohmann::json to_json(const experiment_view& v) {
  const auto& e = v.experiment;
  nlohmann::json arms = nlohmann::json::array();
  for (const auto& a : e.arms) {
    nlohmann::json j = {{"idx", a.idx}, {"variant", a.variant}, {"role", db::to_string(a.role)}, {"levels", a.levels}};
    if (const auto* b = build_of(v, a)) j["build"] = build_json(*b);
    arms.push_back(j);
  }
  nlohmann::json c = nlohmann::json::object();
  for (const auto& [key, st] : v.samples) c[e.arms.at(key.first).variant][key.second] = st;
  // Arm 0 is the baseline of every comparison in the experiment (analysis.hpp).
  auto out = to_json(experiment_result{e.id, e.arms.empty() ? "" : e.arms[0].variant, v.verdicts});
  out.update({{"kind", db::to_string(e.kind)}, {"status", db::to_string(e.status)}, {"command_line", e.command_line},
              {"seed", e.seed}, {"config", e.config}, {"arms", arms}, {"samples", c}});
  return out;
}

// What the build cost and why, what it was handed and what the project decided.
std::string build_text(const db::build_record& b) {
  std::string out = fmt::format("  build {} at {}{} in {}", b.id, b.commit_sha.value_or("(no git)").substr(0, 12), b.dirty ? "+dirty" : "",
                                b.build_dir);
  // schema v3; older builds did not record it.
  if (b.duration_s) out += fmt::format("\n        built in {:.1f} s", *b.duration_s);
  if (b.objects_compiled) out += fmt::format(", {} compiled", *b.objects_compiled);
  if (b.cache_hits) out += fmt::format(", {} from the cache", *b.cache_hits);
  if (b.links) out += fmt::format(", {} linked", *b.links);
  // What a `values` entry handed the build in place of the level's name (docs/manifest.md).
  if (const auto v = b.details.find("values"); v != b.details.end() && v->is_object())
    for (const auto& [id, value] : v->items()) out += fmt::format("\n        value of {}: {}", id, value.dump());
  // What each toggle resolved to (design §9.2, "Defaults flipped"), on two lines: what abtest gave,
  // and what the project's own defaults decided.
  if (const auto r = b.details.find("resolved"); r != b.details.end()) {
    std::vector<std::string> given, project;
    for (const auto& [id, t] : resolved_from_json(*r)) (t.handed ? given : project).push_back(id + "=" + to_text(t));
    if (!given.empty()) out += fmt::format("\n        toggles given: {}", fmt::join(given, " "));
    if (!project.empty()) out += fmt::format("\n        toggles at the project's defaults: {}", fmt::join(project, " "));
  }
  for (const auto& note : b.details.value("notes", std::vector<std::string>{})) out += fmt::format("\n        note: {}", note);
  return out;
}

// The environment its `env` toggles gave the benchmarks (the plan's arm; null: removed).
std::string env_text(const db::experiment_record& e, const db::arm_record& a) {
  std::string out;
  const auto plan_arms = e.config.find("arms");
  if (plan_arms == e.config.end() || !plan_arms->is_array() || static_cast<std::size_t>(a.idx) >= plan_arms->size()) return out;
  const auto& arm = (*plan_arms)[static_cast<std::size_t>(a.idx)];
  if (const auto env = arm.find("env"); env != arm.end() && env->is_object())
    for (const auto& [name, value] : env->items())
      out += fmt::format("\n        env {}", value.is_null() ? name + " unset" : name + "=" + value.get<std::string>());
  return out;
}

std::string to_text(const experiment_view& v) {
  const auto& e = v.experiment;
  std::string out = fmt::format("experiment {} ({}, {})\n  started  {}\n  command  {}\n  seed     {}\n", e.id, db::to_string(e.kind),
                                db::to_string(e.status), db::format_utc(e.started_at), e.command_line, e.seed);
  // The manifest's `better` / `margin` declarations the run judged by (none before them).
  for (const auto& r : stats::rules_from_json(e.config.value("metric_rules", nlohmann::json::array())))
    out += fmt::format("  metrics  {}{}{}\n", r.pattern, r.direction ? fmt::format(" better {}", stats::to_string(*r.direction)) : "",
                       r.margin ? fmt::format(" margin {:g}%", *r.margin * 100) : "");
  for (const auto& a : e.arms) {
    out += fmt::format("  arm {} {:<20} {}", a.idx, a.variant, db::to_string(a.role));
    if (const auto* b = build_of(v, a)) out += build_text(*b);
    out += env_text(e, a) + "\n";
  }
  for (const auto& [key, st] : v.samples) {
    std::vector<std::string> parts;
    for (const auto& [status, n] : st) parts.push_back(fmt::format("{} {}", n, status));
    out += fmt::format("  samples {} / {}: {}\n", e.arms.at(key.first).variant, key.second, fmt::join(parts, ", "));
  }
  for (const auto& verdict : v.verdicts) out += stored_verdict_text(verdict);
  return out;
}

}  // namespace

std::string stored_verdict_text(const db::verdict_record& v) {
  const auto kind = stats::parse_verdict(db::to_string(v.verdict));
  std::string out = fmt::format("  verdict {:<16} {:<34} n={:<3} ratio {} [{}, {}] {}{}\n", v.variant, v.metric, v.n,
                                v.ratio ? fmt::format("{:.4f}", *v.ratio) : "—", v.ci_low ? fmt::format("{:.4f}", *v.ci_low) : "—",
                                v.ci_high ? fmt::format("{:.4f}", *v.ci_high) : "—",
                                kind ? stats::verdict_label(v.metric, *kind, policy_of(v).direction) : std::string(db::to_string(v.verdict)),
                                std::string(v.immaterial ? " (immaterial)" : "") + policy_note(policy_of(v)));
  if (const auto l = v.details.find("layouts"); l != v.details.end())
    out += fmt::format("          {:<16} {:<34} layout: {}\n", "", "", layout_summary(*l));
  return out;
}

std::string render(const experiment_list& l, format f) {
  if (f != format::json && f != format::terminal) throw std::invalid_argument("list has no markdown or HTML output");
  nlohmann::json out = nlohmann::json::array();
  std::string text = fmt::format("{:<28} {:<12} {:<11} {:<21} {}\n", "experiment", "kind", "status", "started", "arms");
  for (const auto& [e, status] : l.experiments) {
    std::vector<std::string> arms;
    for (const auto& a : e.arms) arms.push_back(a.variant);
    const std::string started = db::format_utc(e.started_at);
    out.push_back({{"experiment", e.id}, {"kind", db::to_string(e.kind)}, {"status", status},
                   {"started_at", started}, {"arms", arms}, {"command_line", e.command_line}});
    text += fmt::format("{:<28} {:<12} {:<11} {:<21} {}\n", e.id, db::to_string(e.kind), status, started.substr(0, 19),
                        fmt::join(arms, " vs "));
  }
  return f == format::json ? out.dump(2) + "\n" : text;
}

std::string render(const experiment_view& v, format f) {
  if (f == format::json) return to_json(v).dump(2) + "\n";
  if (f == format::terminal) return to_text(v);
  throw std::invalid_argument("show has no markdown or HTML output — `abtest report EXPERIMENT` writes one");
}

}  // namespace abtest::report
