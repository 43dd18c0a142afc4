// `abtest list`: the recorded experiments, newest first.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "db/time_text.hpp"
#include "harness/commands/command.hpp"
#include "harness/exec/host.hpp"

namespace abtest::cli {

static const registrar list_command(60, [](CLI::App& app, global_options& g, action& act) {
  auto limit = std::make_shared<std::size_t>(20);
  auto* cmd = app.add_subcommand("list", "list recorded experiments, newest first");
  cmd->add_option("--limit", *limit, "how many (default 20, 0 = all)");
  cmd->callback([limit, &g, &act] {
    act = [limit, &g] {
      auto store = open_store_read_only(db_path(g, nullptr));
      const auto experiments = store.list_experiments(std::nullopt, *limit);
      nlohmann::json out = nlohmann::json::array();
      if (!g.json && !g.quiet) fmt::print("{:<28} {:<12} {:<11} {:<21} {}\n", "experiment", "kind", "status", "started", "arms");
      const std::string host = exec::collect_host_facts().hostname;
      for (const auto& e : experiments) {
        std::vector<std::string> arms;
        for (const auto& a : e.arms) arms.push_back(a.variant);
        const std::string started = db::format_utc(e.started_at);
        // The file is opened read-only: a run whose process died is shown as the next writer will mark it.
        const std::string status(owner_died(e, host) ? db::to_string(db::experiment_status::incomplete) : db::to_string(e.status));
        out.push_back({{"experiment", e.id}, {"kind", db::to_string(e.kind)}, {"status", status},
                       {"started_at", started}, {"arms", arms}, {"command_line", e.command_line}});
        if (!g.json && !g.quiet)
          fmt::print("{:<28} {:<12} {:<11} {:<21} {}\n", e.id, db::to_string(e.kind), status,
                     started.substr(0, 19), fmt::join(arms, " vs "));
      }
      if (g.json) std::cout << out.dump(2) << "\n";
      return 0;
    };
  });
});

}  // namespace abtest::cli
