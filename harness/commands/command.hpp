// What every subcommand shares: the global options and the registration hook of commands/*.cpp.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/core/manifest.hpp"
#include "harness/experiment/context.hpp"
#include "harness/report/render.hpp"

namespace abtest::cli {

struct global_options {
  std::string manifest;  // --manifest
  std::string db;        // --db
  bool json = false;     // --json: machine-readable output on stdout (design §9)
  bool quiet = false;    // -q
  int verbose = 0;       // -v (repeatable)
  std::string command_line;  // as typed, recorded with each experiment
};

// The action a parsed subcommand runs; returns the process exit code.
using action = std::function<int()>;

// Each commands/<name>.cpp adds its subcommand to the app and, when it is the one parsed, sets
// `run`. It registers itself with a file-scope `registrar`, so adding a command touches no other
// file:
//   static const registrar reg(30, [](CLI::App& app, global_options& g, action& run) { ... });
// `order` fixes the position in `abtest --help`.
using register_fn = std::function<void(CLI::App&, global_options&, action&)>;

struct registrar {
  registrar(int order, register_fn fn);
};

// Every registered command, sorted by order.
std::vector<register_fn> registered_commands();

// --- helpers shared by the commands (commands/context.cpp) ---------------------------------

manifest load_manifest_for(const global_options& g);
// The manifest's params with `--param K=V` overrides applied; an unknown key or a missing `=` is a
// usage error naming the known keys.
std::map<std::string, std::string> parse_params(const manifest& m, const std::vector<std::string>& items);
// --db, else $ABTEST_DB, else <manifest dir>/.abtest/results.db (./.abtest/results.db without one).
std::filesystem::path db_path(const global_options& g, const manifest* m);
// Opens (creating, migrating) the results database for writing; marks experiments whose process
// died (SIGKILL, reboot) as incomplete so they can be resumed.
db::results_store open_store(const std::filesystem::path& path);
db::results_store open_store_read_only(const std::filesystem::path& path);
// EXPERIMENT when given (a usage error pointing at `abtest list` when there is none), else the newest
// experiment that is not a step of another: a bisection's comparisons are recorded as experiments
// with a `parent`, and the latest is the bisection itself. For show, compare and report.
db::experiment_record experiment_or_latest(db::results_store& store, const std::string& id);
// True for an experiment recorded as running by a process of `this_host` that no longer exists:
// read-only commands show it as incomplete, as the next write-open will record it.
bool owner_died(const db::experiment_record& e, const std::string& this_host);

// What the experiment library is told of the options: -v, and where its progress goes — stderr,
// one rewritten line on a terminal and plain milestone lines elsewhere (progress_printer); with
// --json only the warnings (notes) and -v's build output; with -q nothing.
experiment_context context_for(const global_options& g);

// How every command ends (design §9): its result rendered by report/ as --json asks, else for the
// terminal; nothing with -q.
template <class Result>
void print_result(const global_options& g, const Result& result) {
  if (g.json) std::cout << render(result, report::format::json);  // found by ADL in report::
  else if (!g.quiet) std::cout << render(result, report::format::terminal);
}

}  // namespace abtest::cli
