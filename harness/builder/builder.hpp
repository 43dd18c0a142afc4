// Builds one variant in its own folder with the project's build system (CMake, Cargo, Meson or a command),
// through a compiler cache shared by all variants, and records what it cost (design §3.1, §5).
//
//   builder b(m, {.jobs = 2});
//   build_outcome r = b.build(parse_variant_spec("A1=4", m));
//   if (!r.ok) print(r.log_tail);          // never thrown: a failed variant is data (bisect skips it)
//   r.binaries["synth-bench"].sha256       // identical hashes = identical programs
//   r.cost.cache_misses                    // objects really compiled; the rest came from the cache
//   b.build(v, [](std::string_view line) { … });  // each line of the build tool's output, as it comes
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/builder/compiler_cache.hpp"
#include "harness/builder/resolved_toggles.hpp"
#include "harness/builder/source_tree.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/variant.hpp"
#include "harness/exec/env_changes.hpp"

namespace abtest {

struct built_binary {
  std::filesystem::path path;
  std::string sha256;
};

struct source_state {
  std::string commit;   // `git rev-parse HEAD` of the source folder; empty outside git
  bool dirty = false;   // uncommitted changes to tracked files
};

struct build_outcome {
  variant v;                         // the variant as built: its `env` toggles left out
  std::string key;
  std::filesystem::path dir;         // the variant's build folder
  std::filesystem::path bin_dir;     // what {bin} stands for
  std::filesystem::path log_path;    // configure + build output of the last build
  bool ok = false;
  bool configured_now = false;       // false: the folder was configured before (incremental build)
  std::string log_tail;              // last lines of the log, for the error message
  std::vector<std::string> missing_targets;  // targets the build tool did not know
  std::map<std::string, built_binary> binaries;  // target → file and hash (ok builds only)
  std::string binaries_digest;       // hash over every target's hash: equal ⇔ same programs
  double duration_s = 0;
  double started_at_unix = 0;
  std::string compiler, flags;       // CMake: from the build folder's cache; cargo: rustc -V
  std::string tool_version;          // cmake --version / cargo -V, first line
  source_state source;
  std::vector<std::string> applied;  // patch / revert toggles applied in its worktree
  resolved_toggles resolved;         // what every toggle that changes the build was in it (design §5)
  build_cost cost;                   // objects compiled, cache hits and misses, links, notes
};

struct builder_options {
  int jobs = 0;                      // 0: the build tool's default
  std::filesystem::path build_root;  // default: <manifest dir>/.abtest/build
  std::vector<std::string> extra_cmake_args;  // e.g. a layout seed for noise-floor builds
  std::string folder_suffix;         // appended to the variant's folder (noise-floor rebuilds)
  std::vector<std::string> targets;  // empty: the manifest's build.targets
  std::optional<bool> without_cuda;  // default: this host has no CUDA device
  // Which toggles the build hands a level (design §3.1). nullopt: every toggle of the manifest, off
  // levels too — a variant experiment. A set: only these ids, at the variant's level (off when it
  // has none); every other toggle is left to the project's own default (its option()'s, its
  // `default` features, its build's own variable) — a commit as it ships (pr, bisect --commits,
  // check; design §5). Such a build is named `defaults`, `defaults+CRASH`, … (defaults_key).
  std::optional<std::set<std::string>> pinned;
};

// A command build's argv and the environment its `var` toggles give it.
struct command_line {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;
};

// Receives each line of a build tool's output (stdout and stderr, in the order they come, without
// the newline) while the tool runs: for progress ("[12/40] Building CXX object …") and for -v.
using build_output_fn = std::function<void(std::string_view line)>;

class builder {
 public:
  builder(const manifest& m, builder_options options = {});

  // Prepares the variant's sources (a worktree when it needs one), configures when needed and
  // builds the targets. Never throws for a failing compiler or patch: the outcome says ok = false.
  // The tools' output goes to the build's log as it comes, and to `on_output` line by line.
  build_outcome build(const variant& v, const build_output_fn& on_output = {}) const;
  std::filesystem::path folder(const variant& v) const;
  // What the build of `v` is called: its variant key (build_part), or with builder_options::pinned
  // its defaults_key.
  std::string key(const variant& v) const;

  // The configure line for `v` (cmake, meson setup; empty for systems without one), for tests and
  // `abtest build --dry-run`.
  std::vector<std::string> configure_command(const variant& v) const;
  // A command build's line for `v`: {NAME} and $NAME are the `var` toggles' values, {build_dir}
  // the variant's build folder (for `abtest build --dry-run`).
  command_line build_command_line(const variant& v) const;

 private:
  // The driver's read-back, completed for every toggle that changes the build.
  resolved_toggles resolved_in(const variant& v, resolved_toggles from_tool) const;

  const manifest& m_;
  builder_options options_;
  source_snapshot snapshot_;
  mutable bool untracked_said_ = false;  // the untracked-files note: once per builder, not per variant
};

source_state read_source_state(const std::filesystem::path& dir);

// The part of `v` that the build sees: `env` toggles left out, so that variants that differ only
// in them share one build (design §3.1).
variant build_part(const variant& v, const manifest& m);
// The environment that `v`'s `env` toggles give the benchmark processes (off levels too): each
// level's value (toggle_spec::value_of), nullopt where the level unsets the variable.
exec::env_changes run_env(const variant& v, const manifest& m);
// What `v`'s option and var toggles that have `values` hand its build, off levels too: (toggle id,
// value) in manifest order. The variant key names only the levels; this says what they meant.
std::vector<std::pair<std::string, std::string>> handed_values(const variant& v, const manifest& m);
// The name of a build that leaves every toggle but `pinned` to the project's own defaults:
// "defaults", then each pinned toggle in manifest order as the variant key spells it, off levels
// too ("defaults+CRASH", "defaults+SLOW=OFF").
std::string defaults_key(const variant& v, const std::set<std::string>& pinned, const manifest& m);
// Whether a build with `options` hands toggle `id` a level.
bool hands(const builder_options& options, const std::string& id);
// What makes two arms the same program: their binaries and their run-time environment.
std::string program_digest(const std::string& binaries_digest, const exec::env_changes& env);
// The targets that the named benchmarks' `{bin}/NAME` programs come from (all benchmarks if empty),
// in build.targets order, for builder_options::targets.
std::vector<std::string> targets_for(const manifest& m, const std::vector<std::string>& benchmarks);

}  // namespace abtest
