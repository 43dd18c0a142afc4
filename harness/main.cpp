// abtest: parse → options → command → exit code. Each subcommand lives in commands/<name>.cpp.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <exception>

#include "db/error.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"

int main(int argc, char** argv) {
  using namespace abtest;
  CLI::App app{"abtest — A/B regression bisection for build-time toggles of a proving pipeline"};
  app.require_subcommand(1);
  app.fallthrough();
  cli::global_options g;
  app.add_option("--manifest", g.manifest, "the project manifest (default: $ABTEST_MANIFEST, else ./abtest.json)");
  app.add_option("--db", g.db, "the results database (default: $ABTEST_DB, else .abtest/results.db beside the manifest)");
  app.add_flag("--json", g.json, "machine-readable output on stdout");
  app.add_flag("-q,--quiet", g.quiet, "no progress and no tables");
  app.add_flag("-v,--verbose", g.verbose, "more detail (repeatable)");

  for (int i = 0; i < argc; ++i) g.command_line += (i ? " " : "") + std::string(argv[i]);
  cli::action action;
  for (const auto& add : cli::registered_commands()) add(app, g, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const auto used = app.get_subcommands();
    fmt::print(stderr, "error: {} — see `abtest {}--help`\n", e.what(), used.empty() ? "" : used.front()->get_name() + " ");
    return static_cast<int>(exit_code::usage);
  }
  try {
    return action ? action() : static_cast<int>(exit_code::usage);
  } catch (const user_error& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return static_cast<int>(e.code());
  } catch (const db::error& e) {
    fmt::print(stderr, "error: results database: {} — check the file with `abtest db check`\n", e.what());
    return static_cast<int>(exit_code::usage);
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {} — this is a bug in abtest; please report it with the command line\n", e.what());
    return 70;
  }
}
