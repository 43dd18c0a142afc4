// The project manifest (abtest.json): toggles, build settings, benchmarks, reference (DESIGN §3).
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

#include "harness/exec/parsers.hpp"

namespace abtest {

struct toggle_spec {
  std::string id;                        // [A-Z][A-Z0-9_]{0,15}
  std::string option;                    // the CMake cache variable that carries the level
  std::vector<std::string> levels;       // first = off; default {"OFF", "ON"}
  std::string on;                        // what `--toggle ID` selects; default: the last level
  std::string title;
  std::string phase;
  std::vector<std::string> requires_caps;  // e.g. {"cuda"}: inert on a host without them

  const std::string& off() const { return levels.front(); }
  bool two_level() const { return levels.size() == 2; }
  bool has_level(const std::string& level) const;
};

struct build_spec {
  std::string generator = "Ninja";
  std::string build_type = "Release";
  std::vector<std::string> targets;
  std::vector<std::string> cmake_args;
};

struct benchmark_spec {
  std::string name;
  exec::output_format format = exec::output_format::json;
  std::vector<std::string> command;      // with {bin} and {param} placeholders
  std::string pattern;                   // `lines` only: ECMAScript regex
  double timeout_s = 600;
  int warmups = 1;
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

  const toggle_spec& toggle(const std::string& id) const;  // throws usage_error naming the known ids
  const toggle_spec* find_toggle(const std::string& id) const;
  const benchmark_spec* find_benchmark(const std::string& name) const;
  std::filesystem::path state_dir() const { return dir / ".abtest"; }
};

// Reads and validates a manifest. Every problem is a user_error (exit 2) that names the file, the
// key (e.g. `toggles[2].levels`) and the fix.
manifest load_manifest(const std::filesystem::path& path);
manifest parse_manifest(const std::string& text, const std::filesystem::path& path);

// --manifest PATH, else $ABTEST_MANIFEST, else ./abtest.json.
std::filesystem::path locate_manifest(const std::string& flag);

// The benchmark's command with {bin} and {param} replaced. Unknown placeholders were rejected at
// load time, so this cannot fail for a loaded manifest.
std::vector<std::string> expand_command(const benchmark_spec& bench, const std::filesystem::path& bin,
                                        const std::map<std::string, std::string>& params);

// The targets each benchmark's `{bin}/NAME` program comes from (argv[0] only).
std::vector<std::string> benchmark_programs(const manifest& m);

}  // namespace abtest
