// What every subcommand shares: the global options and the registration hook of commands/*.cpp.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "db/results_store.hpp"
#include "harness/core/manifest.hpp"

namespace abtest::cli {

struct global_options {
  std::string manifest;  // --manifest
  std::string db;        // --db
  bool json = false;     // --json: machine-readable output on stdout (DESIGN §9)
  bool quiet = false;    // -q
  int verbose = 0;       // -v (repeatable)
  std::string command_line;  // as typed, recorded with each experiment
};

// The action a parsed subcommand runs; returns the process exit code.
using action = std::function<int()>;

// Each commands/<name>.cpp defines one of these; main.cpp calls them all.
void register_build(CLI::App& app, global_options& g, action& run);
void register_run(CLI::App& app, global_options& g, action& run);
void register_compare(CLI::App& app, global_options& g, action& run);
void register_list(CLI::App& app, global_options& g, action& run);
void register_show(CLI::App& app, global_options& g, action& run);
void register_query(CLI::App& app, global_options& g, action& run);
void register_db(CLI::App& app, global_options& g, action& run);

// --- helpers shared by the commands (commands/context.cpp) ---------------------------------

manifest load_manifest_for(const global_options& g);
// --db, else $ABTEST_DB, else <manifest dir>/.abtest/results.db (./.abtest/results.db without one).
std::filesystem::path db_path(const global_options& g, const manifest* m);
// Opens (creating, migrating) the results database for writing; marks experiments whose process
// died (SIGKILL, reboot) as incomplete so they can be resumed.
db::results_store open_store(const std::filesystem::path& path);
db::results_store open_store_read_only(const std::filesystem::path& path);

// Progress on a terminal only: one rewritten line on stderr; silent in logs and with -q/--json.
class progress_line {
 public:
  explicit progress_line(const global_options& g);
  ~progress_line();
  void update(const std::string& text);
  void clear();

 private:
  bool enabled_ = false;
  size_t width_ = 0;
};

}  // namespace abtest::cli
