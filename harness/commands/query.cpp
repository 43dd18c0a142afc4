// `abtest query SQL`: one read-only statement against the results database, as a table, CSV or JSON
// (rendered by report/query_output.hpp).
#include <fmt/format.h>

#include <iostream>

#include "db/error.hpp"
#include "db/query.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/report/query_output.hpp"

namespace abtest::cli {
namespace {

struct query_flags {
  std::string sql, format = "table";
};

db::query_result run_query(const std::filesystem::path& path, const std::string& sql) {
  if (!std::filesystem::exists(path))
    throw usage_error(fmt::format("no results database at {} — run an experiment first, or pass --db PATH", path.string()));
  try {
    return db::read_only_query(path, sql);
  } catch (const db::error& e) {
    throw usage_error(fmt::format("query refused: {} — `abtest query` only reads; use SELECT (see the views v_*)", e.what()));
  }
}

int query(const query_flags& f, const global_options& g) {
  const report::query_rows rows{run_query(db_path(g, nullptr), f.sql),
                                f.format == "csv" ? report::query_layout::csv : report::query_layout::table};
  // Not print_result: the rows are the answer asked for, in the --format asked for, and -q has never
  // silenced them.
  const bool json = g.json || f.format == "json";
  std::cout << report::render(rows, json ? report::format::json : report::format::terminal);
  if (!json && rows.layout == report::query_layout::table)
    fmt::print(stderr, "({} row{})\n", rows.result.rows.size(), rows.result.rows.size() == 1 ? "" : "s");
  return 0;
}

}  // namespace

static const registrar query_command(80, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<query_flags>();
  auto* cmd = app.add_subcommand("query", "run one read-only SQL statement on the results database");
  cmd->add_option("sql", f->sql, "the statement, e.g. \"SELECT * FROM v_latest_verdict\"")->required();
  cmd->add_option("--format", f->format, "table, csv or json (default table; --json implies json)")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  cmd->callback([f, &g, &act] { act = [f, &g] { return query(*f, g); }; });
});

}  // namespace abtest::cli
