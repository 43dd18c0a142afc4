// `abtest db check | migrate | merge FILE...`: maintenance of the results database.
#include <fmt/format.h>

#include <iostream>

#include "db/maintenance.hpp"
#include "db/migrations.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"

namespace abtest::cli {

static const registrar db_command(90, [](CLI::App& app, global_options& g, action& act) {
  auto* cmd = app.add_subcommand("db", "maintenance of the results database");
  cmd->require_subcommand(1);

  auto* check = cmd->add_subcommand("check", "integrity and foreign-key check; exit 1 when damaged");
  check->callback([&g, &act] {
    act = [&g] {
      const auto path = db_path(g, nullptr);
      if (!std::filesystem::exists(path)) throw usage_error(fmt::format("no results database at {} — pass --db PATH", path.string()));
      const auto r = db::check(path);
      if (g.json) {
        std::cout << nlohmann::json({{"ok", r.ok()}, {"schema_version", r.schema_version}, {"integrity", r.integrity_problems},
                                     {"foreign_keys", r.foreign_key_problems}})
                         .dump(2)
                  << "\n";
      } else {
        fmt::print("{}: schema v{}, {}\n", path.string(), r.schema_version, r.ok() ? "ok" : "DAMAGED");
        for (const auto& p : r.integrity_problems) fmt::print("  integrity: {}\n", p);
        for (const auto& p : r.foreign_key_problems) fmt::print("  foreign key: {}\n", p);
      }
      return r.ok() ? 0 : static_cast<int>(exit_code::regression);
    };
  });

  auto* migrate = cmd->add_subcommand("migrate", "apply pending schema migrations");
  migrate->callback([&g, &act] {
    act = [&g] {
      const auto path = db_path(g, nullptr);
      db::database d(path, db::open_mode::read_write_create);
      const int from = d.user_version();
      db::migrate(d);
      const int to = d.user_version();
      if (!g.quiet) fmt::print("{}: schema v{} → v{}\n", path.string(), from, to);
      return 0;
    };
  });

  auto sources = std::make_shared<std::vector<std::string>>();
  auto* merge = cmd->add_subcommand("merge", "merge other results files into this one (dedupe by uuid)");
  merge->add_option("files", *sources, "results files to merge in")->required()->check(CLI::ExistingFile);
  merge->callback([sources, &g, &act] {
    act = [sources, &g] {
      const auto target = db_path(g, nullptr);
      std::vector<std::filesystem::path> paths(sources->begin(), sources->end());
      const auto reports = db::merge(target, paths);
      nlohmann::json out = nlohmann::json::array();
      for (size_t i = 0; i < reports.size(); ++i) {
        const auto& r = reports[i];
        out.push_back({{"source", paths[i].string()}, {"experiments_added", r.experiments_added}, {"samples_added", r.samples_added},
                       {"samples_present", r.samples_present}, {"samples_conflicting", r.samples_conflicting},
                       {"builds_added", r.builds_added}, {"machines_added", r.machines_added},
                       {"renamed_experiments", r.renamed_experiments}});
        if (!g.json && !g.quiet) {
          fmt::print("{}: +{} experiments, +{} samples ({} already present, {} conflicting)\n", paths[i].string(),
                     r.experiments_added, r.samples_added, r.samples_present, r.samples_conflicting);
          // Ids are short and time-based: shards started in the same second can share one.
          for (const auto& rename : r.renamed_experiments) fmt::print("  renamed (id taken): {}\n", rename);
        }
      }
      if (g.json) std::cout << out.dump(2) << "\n";
      return 0;
    };
  });
});

}  // namespace abtest::cli
