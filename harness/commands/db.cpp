// `abtest db check | migrate | merge FILE...`: maintenance of the results database (check's and
// merge's output rendered by report/db_output.hpp).
#include <fmt/format.h>

#include <iostream>

#include "db/maintenance.hpp"
#include "db/migrations.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/report/db_output.hpp"

namespace abtest::cli {
namespace {

int db_check(const global_options& g) {
  const auto path = db_path(g, nullptr);
  if (!std::filesystem::exists(path)) throw usage_error(fmt::format("no results database at {} — pass --db PATH", path.string()));
  const report::db_check_result r{path, db::check(path)};
  // Not print_result: -q has never silenced the check's answer.
  std::cout << report::render(r, g.json ? report::format::json : report::format::terminal);
  return r.check.ok() ? 0 : static_cast<int>(exit_code::regression);
}

// Its one line, with --json too (it has no JSON document).
int db_migrate(const global_options& g) {
  const auto path = db_path(g, nullptr);
  db::database d(path, db::open_mode::read_write_create);
  const int from = d.user_version();
  db::migrate(d);
  const int to = d.user_version();
  if (!g.quiet) fmt::print("{}: schema v{} → v{}\n", path.string(), from, to);
  return 0;
}

int db_merge(const std::vector<std::string>& sources, const global_options& g) {
  const auto target = db_path(g, nullptr);
  std::vector<std::filesystem::path> paths(sources.begin(), sources.end());
  auto reports = db::merge(target, paths);
  const report::db_merge_result r{std::move(paths), std::move(reports)};
  print_result(g, r);
  return 0;
}

}  // namespace

static const registrar db_command(90, [](CLI::App& app, global_options& g, action& act) {
  auto* cmd = app.add_subcommand("db", "maintenance of the results database");
  cmd->require_subcommand(1);
  auto* check = cmd->add_subcommand("check", "integrity and foreign-key check; exit 1 when damaged");
  check->callback([&g, &act] { act = [&g] { return db_check(g); }; });
  auto* migrate = cmd->add_subcommand("migrate", "apply pending schema migrations");
  migrate->callback([&g, &act] { act = [&g] { return db_migrate(g); }; });
  auto sources = std::make_shared<std::vector<std::string>>();
  auto* merge = cmd->add_subcommand("merge", "merge other results files into this one (dedupe by uuid)");
  merge->add_option("files", *sources, "results files to merge in")->required()->check(CLI::ExistingFile);
  merge->callback([sources, &g, &act] { act = [sources, &g] { return db_merge(*sources, g); }; });
});

}  // namespace abtest::cli
