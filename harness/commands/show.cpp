// `abtest show EXPERIMENT`: everything recorded about one experiment — plan, arms and their builds,
// sample counts and statuses, stored verdicts.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "db/time_text.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"

namespace abtest::cli {

static const registrar reg(70, [](CLI::App& app, global_options& g, action& act) {
  auto id = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("show", "show one experiment: plan, arms, builds, samples, verdicts");
  cmd->add_option("experiment", *id, "the experiment id (see `abtest list`)")->required();
  cmd->callback([id, &g, &act] {
    act = [id, &g] {
      auto store = open_store_read_only(db_path(g, nullptr));
      const auto e = store.find_experiment(*id);
      if (!e) throw usage_error(fmt::format("no experiment {} — `abtest list` shows the recorded ones", *id));
      const auto samples = store.list_samples(e->id);
      const auto verdicts = store.list_verdicts(e->id);
      std::map<std::pair<int, std::string>, std::map<std::string, int>> counts;  // (arm, bench) → status → n
      for (const auto& s : samples) ++counts[{s.arm_idx, s.benchmark}][std::string(db::to_string(s.status)) + (s.warmup ? " (warm-up)" : "")];
      if (g.json) {
        nlohmann::json arms = nlohmann::json::array();
        for (const auto& a : e->arms) {
          nlohmann::json j = {{"idx", a.idx}, {"variant", a.variant}, {"role", db::to_string(a.role)}, {"levels", a.levels}};
          if (a.build_id) {
            if (const auto b = store.find_build(*a.build_id)) {
              j["build"] = {{"id", b->id}, {"dir", b->build_dir}, {"commit", b->commit_sha.value_or("")}, {"dirty", b->dirty}};
              for (const auto& bin : b->binaries) j["build"]["binaries"][bin.target] = bin.sha256;
            }
          }
          arms.push_back(j);
        }
        nlohmann::json vs = nlohmann::json::array();
        for (const auto& v : verdicts)
          vs.push_back({{"variant", v.variant}, {"metric", v.metric}, {"n", v.n}, {"ratio", v.ratio.value_or(0)},
                        {"ci_low", v.ci_low ? nlohmann::json(*v.ci_low) : nlohmann::json()},
                        {"ci_high", v.ci_high ? nlohmann::json(*v.ci_high) : nlohmann::json()},
                        {"p_adjusted", v.p_adjusted.value_or(1)}, {"verdict", db::to_string(v.verdict)}});
        nlohmann::json c = nlohmann::json::object();
        for (const auto& [key, st] : counts) c[e->arms.at(key.first).variant][key.second] = st;
        std::cout << nlohmann::json({{"experiment", e->id}, {"kind", db::to_string(e->kind)}, {"status", db::to_string(e->status)},
                                     {"command_line", e->command_line}, {"seed", e->seed}, {"config", e->config},
                                     {"arms", arms}, {"samples", c}, {"verdicts", vs}})
                         .dump(2)
                  << "\n";
        return 0;
      }
      fmt::print("experiment {} ({}, {})\n  started  {}\n  command  {}\n  seed     {}\n", e->id, db::to_string(e->kind),
                 db::to_string(e->status), db::format_utc(e->started_at), e->command_line, e->seed);
      for (const auto& a : e->arms) {
        fmt::print("  arm {} {:<20} {}", a.idx, a.variant, db::to_string(a.role));
        if (a.build_id)
          if (const auto b = store.find_build(*a.build_id))
            fmt::print("  build {} at {}{} in {}", b->id, b->commit_sha.value_or("(no git)").substr(0, 12), b->dirty ? "+dirty" : "",
                       b->build_dir);
        fmt::print("\n");
      }
      for (const auto& [key, st] : counts) {
        std::vector<std::string> parts;
        for (const auto& [status, n] : st) parts.push_back(fmt::format("{} {}", n, status));
        fmt::print("  samples {} / {}: {}\n", e->arms.at(key.first).variant, key.second, fmt::join(parts, ", "));
      }
      for (const auto& v : verdicts)
        fmt::print("  verdict {:<16} {:<34} n={:<3} ratio {:.4f} [{}, {}] {}\n", v.variant, v.metric, v.n, v.ratio.value_or(0),
                   v.ci_low ? fmt::format("{:.4f}", *v.ci_low) : "—", v.ci_high ? fmt::format("{:.4f}", *v.ci_high) : "—",
                   db::to_string(v.verdict));
      return 0;
    };
  });
});

}  // namespace abtest::cli
