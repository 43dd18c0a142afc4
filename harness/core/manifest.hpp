// The project manifest (abtest.json): toggles, build settings, benchmarks, reference (design §3).
//
// Example:
//   auto m = abtest::load_manifest("abtest.json");   // throws user_error (exit 2) naming file + key
//   const toggle_spec& a1 = m.toggle("A1");          // levels {"0","1","2","4"}, on "4"
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/exec/format.hpp"
#include "harness/stats/metric_policy.hpp"

namespace abtest {

// How a toggle reaches the project (design §3.1): option, feature, var, env, patch, revert — each one
// file of harness/core/toggles/ behind this interface (toggles/toggle_kind.hpp); exactly one kind key per toggle.
class toggle_kind;
const toggle_kind& option_toggle_kind();

struct toggle_spec {
  std::string id;                        // [A-Z][A-Z0-9_]{0,15}
  const toggle_kind* kind = &option_toggle_kind();  // never null
  std::string option;                    // option: the CMake cache variable that carries the level
  std::map<std::string, std::vector<std::string>> features;  // feature: level → Cargo features
  std::string var;                       // var / env: the variable's name
  std::filesystem::path patch;           // patch: the diff, absolute
  std::string revert;                    // revert: the commit as written in the manifest
  std::vector<std::string> levels;       // first = off; default {"OFF", "ON"}
  // option / var / env: what a level hands the build or the process where that is not the level's
  // own name, e.g. {"O3": "-O3 -march=native"}; nullopt (JSON null, env only): the variable is
  // removed from the benchmark's environment. Levels name variants and folders; values never do.
  std::map<std::string, std::optional<std::string>> values;
  std::string on;                        // what `--toggle ID` selects; default: the last level
  std::string title;
  std::string phase;
  std::vector<std::string> requires_caps;  // e.g. {"cuda"}: inert on a host without them

  const std::string& off() const { return levels.front(); }
  bool changes_build() const;   // its kind's: every kind but env
  bool changes_source() const;  // its kind's: patch, revert
  bool two_level() const { return levels.size() == 2; }
  bool has_level(const std::string& level) const;
  // What `level` hands the build (-D<option>=, {VAR}) or the benchmark's environment: its entry in
  // `values`, else the level itself; nullopt only for an env toggle's unset level.
  std::optional<std::string> value_of(const std::string& level) const;
};

enum class build_system { cmake, cargo, command, meson };
const char* to_string(build_system s);

struct build_spec {
  build_system system = build_system::cmake;
  // Programs to build (cmake targets, cargo bins, command outputs). Cargo also builds bench
  // targets, written "bench:NAME" ([[bench]] or benches/NAME.rs); the program is {bin}/NAME either way.
  std::vector<std::string> targets;
  // cmake (build_type also meson: CMake's names or Meson's own --buildtype)
  std::string generator = "Ninja";
  std::string build_type = "Release";
  std::vector<std::string> cmake_args;
  // cargo
  std::string profile = "release";
  std::vector<std::string> args;         // extra `cargo build` (e.g. --offline) or `meson setup` arguments
  std::vector<std::string> packages;     // cargo: `-p` per workspace member (empty: Cargo's own choice)
  std::vector<std::string> features;     // cargo: on in every variant (e.g. a bench's required-features)
  // command: argv run in the variant's worktree; {VAR} placeholders from `var` toggles, {build_dir}
  std::vector<std::string> command;
  std::string bin = ".";                 // where the programs land, relative to the worktree
  // Added to the configure (cmake) or build (cargo, command) line on a host without a CUDA device:
  // kernels that cannot run here are not built (the build record says so).
  std::vector<std::string> without_cuda_args;
  // cmake: added to the configure line of `--bundle` builds (their own folders), for the host that
  // will run the bundle, e.g. {"-DABTEST_CUDA=ON", "-DCMAKE_CUDA_ARCHITECTURES=90"}; without_cuda_args
  // never apply there: the target's devices, not this host's, decide.
  std::vector<std::string> bundle_args;
};

// What `abtest run --counts` runs once per arm under Valgrind (design §6): the benchmark's
// command with these params over the run's, and `args` appended, e.g.
//   "counts": {"params": {"preset": "tiny"}, "region": "zk::bench::run_synthesis*",
//              "rename": [["<[0-9]+ul>", "<N>"]]}
// `"counts": false` leaves the benchmark out of --counts; no entry counts it on the run's params,
// the whole program.
struct counts_spec {
  bool enabled = true;
  std::map<std::string, std::string> params;   // over the run's params (each a key of `params`)
  // callgrind's --toggle-collect pattern (`*` and `?` wildcards over demangled names): count only
  // inside these calls, e.g. to leave out a benchmark library's report of its timings. Empty: all.
  std::string region;
  std::vector<std::string> args;               // appended to the command; {param} placeholders allowed
  // ECMAScript regex → replacement, applied to function and allocation-site names before the two
  // arms are matched (cg_diff's --mod-funcname), e.g. a template argument that the toggle changes.
  std::vector<std::pair<std::string, std::string>> rename;
  double timeout_s = 0;                        // per Valgrind run; default 50 × the benchmark's timeout_s
};

struct benchmark_spec {
  std::string name;
  std::string format = "json";           // a row of exec::output_formats()
  // The format's own keys (`pattern`, `rows`, …) as its row validated them; carried in bundles.
  nlohmann::json format_options = nlohmann::json::object();
  std::vector<std::string> command;      // with {bin}, {param} and {out} placeholders
  double timeout_s = 600;
  int warmups = 1;
  std::vector<int> ok_exit_codes{0};     // exit codes of a run that measured (default: 0 only)
  counts_spec counts;
};

struct reference_spec {
  std::string label;
  std::map<std::string, std::string> params;
  std::map<std::string, double> metrics;  // "proof.total_s" → 88.9
};

struct manifest {
  std::filesystem::path path;            // the manifest file, absolute
  std::filesystem::path dir;             // its folder: every relative path is taken from here
  std::filesystem::path source_dir;      // absolute
  std::string project;
  build_spec build;
  std::map<std::string, std::string> params;
  std::vector<toggle_spec> toggles;
  std::vector<benchmark_spec> benchmarks;
  std::optional<reference_spec> reference;
  // Each benchmark's `better` / `margin` and the `metrics` declarations (manifest_metrics.hpp); a run
  // copies them into its plan (run_plan::metric_rules).
  std::vector<stats::metric_rule> metric_rules;

  const toggle_spec& toggle(const std::string& id) const;  // throws usage_error naming the known ids
  const toggle_spec* find_toggle(const std::string& id) const;
  const benchmark_spec* find_benchmark(const std::string& name) const;
  // Some toggle changes the source (patch, revert), or the build runs in the source tree
  // (system command): every variant then builds in a git worktree of its own.
  bool needs_worktrees() const;
  std::filesystem::path state_dir() const { return dir / ".abtest"; }
};

// Reads and validates a manifest. Every problem is a user_error (exit 2) that names the file, the
// key (e.g. `toggles[2].levels`) and the fix. load_manifest also checks what lies outside the text:
// patch files exist, `revert` commits and the git repository of source_dir are there.
manifest load_manifest(const std::filesystem::path& path);
manifest parse_manifest(const std::string& text, const std::filesystem::path& path);
void check_sources(const manifest& m);

// --manifest PATH, else $ABTEST_MANIFEST, else ./abtest.json.
std::filesystem::path locate_manifest(const std::string& flag);

// `arg` with every {NAME} replaced by values.at(NAME); the manifest's checks made sure each exists.
std::string expand_placeholders(const std::string& arg, const std::map<std::string, std::string>& values);

// The benchmark's command with {bin} and {param} replaced. Unknown placeholders were rejected at
// load time, so this cannot fail for a loaded manifest. A program `{bin}/NAME` whose NAME is in
// `programs` (target → file, from the build) is replaced by that file wherever the build put it.
std::vector<std::string> expand_command(const benchmark_spec& bench, const std::filesystem::path& bin,
                                        const std::map<std::string, std::string>& params,
                                        const std::map<std::string, std::filesystem::path>& programs = {});

// The program a build target makes: "bench:NAME" (a Cargo bench target) → "NAME"; others as written.
inline std::string program_of_target(const std::string& target) {
  return target.rfind("bench:", 0) == 0 ? target.substr(6) : target;
}

// The programs the benchmarks run: `{bin}/NAME` as argv[0], or later in argv where NAME is a build
// target (a wrapper's program). Each once, in manifest order.
std::vector<std::string> benchmark_programs(const manifest& m);
std::vector<std::string> benchmark_programs(const manifest& m, const benchmark_spec& b);

}  // namespace abtest
