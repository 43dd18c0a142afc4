// `abtest show EXPERIMENT`: everything recorded about one experiment — plan, arms and their builds,
// sample counts and statuses, stored verdicts.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "db/time_text.hpp"
#include "harness/builder/resolved_toggles.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/report/exporter.hpp"
#include "harness/report/metric_policy_text.hpp"
#include "harness/report/verdict_json.hpp"
#include "harness/stats/metric_policy_json.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::cli {

static const registrar show_command(70, [](CLI::App& app, global_options& g, action& act) {
  auto id = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("show", "show one experiment: plan, arms, builds, samples, verdicts");
  cmd->add_option("experiment", *id, "the experiment id (see `abtest list`; default: the latest)");
  cmd->callback([id, &g, &act] {
    act = [id, &g] {
      auto store = open_store_read_only(db_path(g, nullptr));
      const auto e = experiment_or_latest(store, *id);
      const auto samples = store.list_samples(e.id);
      const auto verdicts = store.list_verdicts(e.id);
      std::map<std::pair<int, std::string>, std::map<std::string, int>> counts;  // (arm, bench) → status → n
      for (const auto& s : samples) ++counts[{s.arm, s.benchmark}][std::string(to_string(s.status)) + (s.warmup ? " (warm-up)" : "")];
      if (g.json) {
        nlohmann::json arms = nlohmann::json::array();
        for (const auto& a : e.arms) {
          nlohmann::json j = {{"idx", a.idx}, {"variant", a.variant}, {"role", db::to_string(a.role)}, {"levels", a.levels}};
          if (a.build_id) {
            if (const auto b = store.find_build(*a.build_id)) {
              j["build"] = {{"id", b->id}, {"dir", b->build_dir}, {"commit", b->commit_sha.value_or("")}, {"dirty", b->dirty},
                            {"duration_s", b->duration_s ? nlohmann::json(*b->duration_s) : nlohmann::json(nullptr)},
                            {"details", b->details}};
              for (const auto& [name, value] : {std::pair{"objects_compiled", b->objects_compiled}, std::pair{"cache_hits", b->cache_hits},
                                                std::pair{"cache_misses", b->cache_misses}, std::pair{"links", b->links}})
                j["build"][name] = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
              for (const auto& bin : b->binaries) j["build"]["binaries"][bin.target] = bin.sha256;
            }
          }
          arms.push_back(j);
        }
        nlohmann::json c = nlohmann::json::object();
        for (const auto& [key, st] : counts) c[e.arms.at(key.first).variant][key.second] = st;
        // Arm 0 is the baseline of every comparison in the experiment (analysis.hpp).
        auto out = report::to_json(report::experiment_result{e.id, e.arms.empty() ? "" : e.arms[0].variant, verdicts});
        out.update({{"kind", db::to_string(e.kind)}, {"status", db::to_string(e.status)}, {"command_line", e.command_line},
                    {"seed", e.seed}, {"config", e.config}, {"arms", arms}, {"samples", c}});
        std::cout << out.dump(2) << "\n";
        return 0;
      }
      fmt::print("experiment {} ({}, {})\n  started  {}\n  command  {}\n  seed     {}\n", e.id, db::to_string(e.kind),
                 db::to_string(e.status), db::format_utc(e.started_at), e.command_line, e.seed);
      // The manifest's `better` / `margin` declarations the run judged by (design §4; none before).
      for (const auto& r : stats::rules_from_json(e.config.value("metric_rules", nlohmann::json::array())))
        fmt::print("  metrics  {}{}{}\n", r.pattern, r.direction ? fmt::format(" better {}", stats::to_string(*r.direction)) : "",
                   r.margin ? fmt::format(" margin {:g}%", *r.margin * 100) : "");
      for (const auto& a : e.arms) {
        fmt::print("  arm {} {:<20} {}", a.idx, a.variant, db::to_string(a.role));
        if (a.build_id)
          if (const auto b = store.find_build(*a.build_id)) {
            fmt::print("  build {} at {}{} in {}", b->id, b->commit_sha.value_or("(no git)").substr(0, 12), b->dirty ? "+dirty" : "",
                       b->build_dir);
            // What the build cost and why (schema v3; older builds did not record it).
            if (b->duration_s) fmt::print("\n        built in {:.1f} s", *b->duration_s);
            if (b->objects_compiled) fmt::print(", {} compiled", *b->objects_compiled);
            if (b->cache_hits) fmt::print(", {} from the cache", *b->cache_hits);
            if (b->links) fmt::print(", {} linked", *b->links);
            // What a `values` entry handed the build in place of the level's name (docs/manifest.md).
            if (const auto v = b->details.find("values"); v != b->details.end() && v->is_object())
              for (const auto& [id, value] : v->items()) fmt::print("\n        value of {}: {}", id, value.dump());
            // What each toggle resolved to (design §5), on two lines: what abtest gave, and what the
            // project's own defaults decided.
            if (const auto r = b->details.find("resolved"); r != b->details.end()) {
              std::vector<std::string> given, project;
              for (const auto& [id, t] : resolved_from_json(*r))
                (t.handed ? given : project).push_back(id + "=" + to_text(t));
              if (!given.empty()) fmt::print("\n        toggles given: {}", fmt::join(given, " "));
              if (!project.empty()) fmt::print("\n        toggles at the project's defaults: {}", fmt::join(project, " "));
            }
            for (const auto& note : b->details.value("notes", std::vector<std::string>{})) fmt::print("\n        note: {}", note);
          }
        // The environment its `env` toggles gave the benchmarks (the plan's arm; null: removed).
        if (const auto plan_arms = e.config.find("arms");
            plan_arms != e.config.end() && plan_arms->is_array() && static_cast<std::size_t>(a.idx) < plan_arms->size()) {
          const auto& arm = (*plan_arms)[static_cast<std::size_t>(a.idx)];
          if (const auto env = arm.find("env"); env != arm.end() && env->is_object())
            for (const auto& [name, value] : env->items())
              fmt::print("\n        env {}", value.is_null() ? name + " unset" : name + "=" + value.get<std::string>());
        }
        fmt::print("\n");
      }
      for (const auto& [key, st] : counts) {
        std::vector<std::string> parts;
        for (const auto& [status, n] : st) parts.push_back(fmt::format("{} {}", n, status));
        fmt::print("  samples {} / {}: {}\n", e.arms.at(key.first).variant, key.second, fmt::join(parts, ", "));
      }
      for (const auto& v : verdicts) {
        const auto kind = stats::parse_verdict(db::to_string(v.verdict));
        fmt::print("  verdict {:<16} {:<34} n={:<3} ratio {} [{}, {}] {}{}\n", v.variant, v.metric, v.n,
                   v.ratio ? fmt::format("{:.4f}", *v.ratio) : "—", v.ci_low ? fmt::format("{:.4f}", *v.ci_low) : "—",
                   v.ci_high ? fmt::format("{:.4f}", *v.ci_high) : "—",
                   kind ? stats::verdict_label(v.metric, *kind, report::policy_of(v).direction) : std::string(db::to_string(v.verdict)),
                   std::string(v.immaterial ? " (immaterial)" : "") + report::policy_note(report::policy_of(v)));
        if (const auto l = v.details.find("layouts"); l != v.details.end())
          fmt::print("          {:<16} {:<34} layout: {}\n", "", "", report::layout_summary(*l));
      }
      return 0;
    };
  });
});

}  // namespace abtest::cli
