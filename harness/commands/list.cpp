// `abtest list`: the recorded experiments, newest first.
#include "harness/commands/command.hpp"
#include "harness/exec/host.hpp"
#include "harness/report/show_output.hpp"

namespace abtest::cli {

static const registrar list_command(60, [](CLI::App& app, global_options& g, action& act) {
  auto limit = std::make_shared<std::size_t>(20);
  auto* cmd = app.add_subcommand("list", "list recorded experiments, newest first");
  cmd->add_option("--limit", *limit, "how many (default 20, 0 = all)");
  cmd->callback([limit, &g, &act] {
    act = [limit, &g] {
      auto store = open_store_read_only(db_path(g, nullptr));
      const std::string host = exec::collect_host_facts().hostname;
      report::experiment_list list;
      // The file is opened read-only: a run whose process died is shown as the next writer will mark it.
      for (auto& e : store.list_experiments(std::nullopt, *limit)) {
        std::string status(owner_died(e, host) ? db::to_string(db::experiment_status::incomplete) : db::to_string(e.status));
        list.experiments.emplace_back(std::move(e), std::move(status));
      }
      print_result(g, list);
      return 0;
    };
  });
});

}  // namespace abtest::cli
