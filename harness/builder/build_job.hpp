// One build of one variant as a build system sees it: where it happens, what it may use, where its
// output goes, and the way every build tool is run (its own process group, output to the log as it
// comes). Each build system (build_system_driver) works on one of these.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/builder/builder.hpp"
#include "harness/builder/file_text.hpp"
#include "harness/exec/process.hpp"

namespace abtest {

// How much of one tool run's output the builder keeps in memory (and the log): a runaway build
// that prints without end is cut to its head and its last lines.
inline constexpr std::size_t build_output_limit = 16u << 20;
inline constexpr std::size_t build_tail_limit = 8u << 10;

struct build_job {
  const manifest& m;
  const builder_options& options;
  const variant& v;
  std::filesystem::path source;              // the variant's source_dir (the project's, or in its worktree)
  std::filesystem::path dir;                 // its build folder
  std::vector<std::string> targets;
  bool without_cuda = false;
  std::map<std::string, std::string> env;    // the compiler cache's
  std::ofstream& log;
  std::string& output;
  const build_output_fn& on_output;

  // Runs a build tool in its own process group. Its output (stdout and stderr in the order they
  // come) goes to the log as it arrives and to `on_output` line by line, so that progress can be
  // shown while it runs; true on exit 0.
  bool run(const std::vector<std::string>& argv, const std::filesystem::path& cwd = {},
           const std::map<std::string, std::string>& extra_env = {}) const {
    exec::process_options o;
    o.argv = argv;
    o.working_dir = cwd;
    o.env.insert(env.begin(), env.end());
    for (const auto& [k, val] : extra_env) o.env[k] = val;
    o.hardware_counters = false;
    // The log and `output` keep the tool's output (tool_output bounds it); the runner keeps none.
    o.stdout_limit = o.stderr_limit = o.tail_limit = 0;
    tool_output out{*this, 0, {}};
    out.keep(fmt::format("$ {}\n", fmt::join(argv, " ")));
    o.on_line = [&](std::string_view line) { out.line(line); };
    const exec::process_result r = exec::run_process(o);
    if (!r.error.empty()) out.keep(r.error + "\n");
    if (!r.started) return false;
    out.finish();
    return r.exit_code == 0;
  }

  // A tool's first line of `--version`; empty when it cannot run.
  std::string version_of(const std::vector<std::string>& argv) const {
    exec::process_options o;
    o.argv = argv;
    o.hardware_counters = false;
    o.timeout_s = 30;
    const auto r = exec::run_process(o);
    return r.started && r.exit_code == 0 ? first_line(r.out.head) : std::string{};
  }

  // One run's output on its way to the log, `output` (its head up to build_output_limit, then its
  // tail) and the caller's hook.
  struct tool_output {
    const build_job& job;
    std::size_t kept = 0;
    std::string tail;
    void keep(std::string_view text) {
      if (kept + text.size() <= build_output_limit) {
        kept += text.size();
        job.log << text;
        job.output += text;
        return;
      }
      kept = build_output_limit + 1;
      tail += text;
      if (tail.size() > 2 * build_tail_limit) tail.erase(0, tail.size() - build_tail_limit);
    }
    void line(std::string_view text) {
      keep(fmt::format("{}\n", text));
      if (job.on_output) job.on_output(text);
    }
    void finish() {
      if (kept > build_output_limit) {
        if (tail.size() > build_tail_limit) tail.erase(0, tail.size() - build_tail_limit);
        keep_always("\n[... output truncated ...]\n" + tail);
      }
      job.log << std::flush;
    }
    void keep_always(const std::string& text) {
      job.log << text;
      job.output += text;
    }
  };
};

// What a build system hands back to the builder.
struct system_result {
  bool ok = false;
  bool configured_now = false;
  std::filesystem::path bin_dir;
  std::map<std::string, std::filesystem::path> programs;  // target → file, where the build system says
  std::string compiler, flags, tool_version;
  std::optional<int> units_compiled, links;  // from the tool's own output where the cache cannot tell
  resolved_toggles resolved;  // what the tool says each toggle ended up as (CMake's cache, Cargo's features)
};

// The configure step of a system that configures a folder once (CMake, Meson): `line` runs when the
// folder has no `configured` file yet, or was last configured with another line (its stamp,
// abtest-configure.txt, differs) or failed. Where the folder holds an earlier configuration,
// `afresh` is inserted at `afresh_at` (CMake's --fresh, Meson's --wipe) so that an argument removed
// from the line does not live on in the tool's saved state. `before` runs just before the tool.
struct configure_outcome {
  bool ok = true;
  bool ran = false;
};
configure_outcome configure_once(const build_job& j, const std::vector<std::string>& line, const std::string& configured,
                                 const std::string& afresh, std::size_t afresh_at, const std::function<void()>& before = {});

// `-D<option>=<value>` for every option toggle the job hands a level (builder_options::pinned: all
// of them for a variant, off levels too, so that a configured folder never keeps a level from an
// earlier configure; CMake and Meson take the same form). Toggles left to the project's defaults
// get none: the configure that leaves one out runs afresh (configure_once), so its cache holds the
// project's own default.
std::vector<std::string> option_definitions(const build_job& j);

// Counts the lines of `text` that match `pattern` (links, compiled crates in a tool's output).
int count_matches(const std::string& text, const std::string& pattern);

}  // namespace abtest
