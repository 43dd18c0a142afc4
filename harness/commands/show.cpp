// `abtest show EXPERIMENT`: everything recorded about one experiment — plan, arms and their builds,
// sample counts and statuses, stored verdicts (rendered by report/show_output.hpp).
#include "harness/commands/command.hpp"
#include "harness/report/show_output.hpp"

namespace abtest::cli {

static const registrar show_command(70, [](CLI::App& app, global_options& g, action& act) {
  auto id = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("show", "show one experiment: plan, arms, builds, samples, verdicts");
  cmd->add_option("experiment", *id, "the experiment id (see `abtest list`; default: the latest)");
  cmd->callback([id, &g, &act] {
    act = [id, &g] {
      auto store = open_store_read_only(db_path(g, nullptr));
      const auto e = experiment_or_latest(store, *id);
      report::experiment_view view{e, {}, report::sample_counts(store.list_samples(e.id)), store.list_verdicts(e.id)};
      for (const auto& a : e.arms)
        if (a.build_id)
          if (auto b = store.find_build(*a.build_id)) view.builds.emplace(*a.build_id, std::move(*b));
      print_result(g, view);
      return 0;
    };
  });
});

}  // namespace abtest::cli
