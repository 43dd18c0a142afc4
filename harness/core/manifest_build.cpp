// Reads the `build` object of abtest.json, one row per build system (design §3.1).
#include "harness/core/manifest_build.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <regex>
#include <set>

#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

using json = nlohmann::json;
using validator = manifest_validator;

// Each build system as the manifest knows it: its name and the keys its `build` object takes
// (design §3.1); the toggle kinds it honours say so themselves (toggles/). A new system is a row
// here, its kinds' systems(), and a driver in harness/builder/.
struct system_row {
  build_system system;
  const char* name;
  std::vector<std::string> keys;  // of the `build` object
  void (*parse)(const validator&, const json&, build_spec&);  // its own keys
  bool bench_targets = false;     // builds "bench:NAME" targets (Cargo)
  bool in_source = false;         // builds in the source tree: every variant needs a worktree of its own
};
void parse_cmake_keys(const validator& v, const json& b, build_spec& out);
void parse_cargo_keys(const validator& v, const json& b, build_spec& out);
void parse_command_keys(const validator& v, const json& b, build_spec& out);
void parse_meson_keys(const validator& v, const json& b, build_spec& out);
const std::vector<system_row>& system_rows() {
  static const std::vector<system_row> rows = {
      {build_system::cmake, "cmake",
       {"system", "generator", "build_type", "targets", "cmake_args", "without_cuda_args", "bundle_args"}, parse_cmake_keys},
      {build_system::cargo, "cargo",
       {"system", "profile", "targets", "packages", "features", "args", "without_cuda_args"}, parse_cargo_keys,
       /*bench_targets=*/true},
      {build_system::command, "command", {"system", "command", "bin", "targets", "without_cuda_args"}, parse_command_keys,
       /*bench_targets=*/false, /*in_source=*/true},
      {build_system::meson, "meson", {"system", "build_type", "targets", "args", "without_cuda_args"}, parse_meson_keys},
  };
  return rows;
}
const system_row& row_of(build_system s) {
  for (const auto& r : system_rows())
    if (r.system == s) return r;
  throw std::logic_error("a build system without its row in system_rows()");
}

// build.targets: "bench:NAME" only where Cargo builds it, and no two targets make one program.
void check_targets(const validator& v, const build_spec& b) {
  static const std::regex bench_re("bench:[A-Za-z0-9_][A-Za-z0-9_-]*");
  std::set<std::string> programs;
  for (size_t i = 0; i < b.targets.size(); ++i) {
    const std::string& t = b.targets[i];
    const std::string where = fmt::format("build.targets[{}]", i);
    if (t.rfind("bench:", 0) == 0) {
      if (!row_of(b.system).bench_targets)
        v.fail(where, fmt::format("\"{}\": only a cargo build has bench targets", t), "name the program the build makes");
      if (!std::regex_match(t, bench_re))
        v.fail(where, fmt::format("\"{}\" is not a Cargo bench target", t), "write \"bench:NAME\", NAME as in [[bench]] or benches/NAME.rs");
    }
    if (!programs.insert(program_of_target(t)).second)
      v.fail(where, fmt::format("\"{}\" makes the program {{bin}}/{} that another target makes", t, program_of_target(t)),
             "keep one target per program name");
  }
}

// Each system's own keys of the `build` object (system_rows()).
void parse_cmake_keys(const validator& v, const json& b, build_spec& out) {
  if (b.contains("generator")) out.generator = v.string(b["generator"], "build.generator");
  if (b.contains("cmake_args")) out.cmake_args = v.strings(b["cmake_args"], "build.cmake_args");
  if (b.contains("bundle_args")) out.bundle_args = v.strings(b["bundle_args"], "build.bundle_args");
  for (size_t i = 0; i < out.bundle_args.size(); ++i)
    if (out.bundle_args[i].rfind("-", 0) != 0)
      v.fail(fmt::format("build.bundle_args[{}]", i), fmt::format("\"{}\" is not a configure option", out.bundle_args[i]),
             "give cmake options, e.g. [\"-DABTEST_CUDA=ON\", \"-DCMAKE_CUDA_ARCHITECTURES=90\"]");
}

void parse_cargo_keys(const validator& v, const json& b, build_spec& out) {
  if (b.contains("profile")) out.profile = v.string(b["profile"], "build.profile");
  static const std::regex profile_re("[A-Za-z][A-Za-z0-9_-]{0,63}");
  if (!std::regex_match(out.profile, profile_re))
    v.fail("build.profile", fmt::format("\"{}\" is not a Cargo profile name", out.profile), "e.g. \"release\"");
  for (const auto& a : out.args)
    if (a.rfind("--features", 0) == 0 || a == "-F" || a.rfind("--target-dir", 0) == 0 || a.rfind("--profile", 0) == 0 ||
        a == "--release")
      v.fail("build.args", fmt::format("\"{}\" is set by abtest", a),
             "remove it: features come from the toggles and build.features, the profile from build.profile, the target "
             "folder is per variant");
    else if (a == "--bin" || a == "--bench" || a == "--bins" || a == "--benches" || a == "-p" || a.rfind("--package", 0) == 0)
      v.fail("build.args", fmt::format("\"{}\" is set by abtest", a),
             "name the programs in build.targets (\"NAME\" for a bin, \"bench:NAME\" for a bench) and the workspace members "
             "in build.packages");
  if (b.contains("packages")) out.packages = v.strings(b["packages"], "build.packages");
  if (b.contains("features")) out.features = v.strings(b["features"], "build.features");
  static const std::regex package_re("[A-Za-z0-9_][A-Za-z0-9_-]*");
  for (size_t i = 0; i < out.packages.size(); ++i)
    if (!std::regex_match(out.packages[i], package_re))
      v.fail(fmt::format("build.packages[{}]", i), fmt::format("\"{}\" is not a Cargo package name", out.packages[i]),
             "name a workspace member, e.g. \"cuzk-bench\"");
  for (size_t i = 0; i < out.features.size(); ++i)
    if (!is_cargo_feature(out.features[i]))
      v.fail(fmt::format("build.features[{}]", i), fmt::format("\"{}\" is not a Cargo feature name", out.features[i]),
             "e.g. \"synth-bench\" or \"cuzk-bench/synth-bench\"");
}

void parse_command_keys(const validator& v, const json& b, build_spec& out) {
  if (!b.contains("command")) v.fail("build.command", "missing", "give the build's argv, e.g. [\"make\", \"-j2\", \"OPT={OPT}\"]");
  out.command = v.strings(b["command"], "build.command");
  if (out.command.empty() || out.command.front().empty()) v.fail("build.command", "is empty", "give the build's argv");
  if (b.contains("bin")) out.bin = v.string(b["bin"], "build.bin");
  if (std::filesystem::path(out.bin).is_absolute() || out.bin.find("..") != std::string::npos)
    v.fail("build.bin", fmt::format("\"{}\" leaves the worktree", out.bin), "give a folder inside the project, e.g. \"out\"");
}

void parse_meson_keys(const validator&, const json&, build_spec&) {}  // build_type and args only, read for all

}  // namespace

void parse_build(const validator& v, const json& b, build_spec& out) {
  if (b.contains("system")) {
    const std::string sys = v.string(b["system"], "build.system");
    std::vector<std::string> names;
    for (const auto& r : system_rows()) names.push_back(r.name);
    const auto row = std::find_if(system_rows().begin(), system_rows().end(), [&](const system_row& r) { return r.name == sys; });
    if (row == system_rows().end())
      v.fail("build.system", fmt::format("unknown build system \"{}\"", sys), fmt::format("use one of: {}", fmt::join(names, ", ")));
    out.system = row->system;
  }
  v.only_keys(b, "build", row_of(out.system).keys);
  if (b.contains("build_type")) out.build_type = v.string(b["build_type"], "build.build_type");
  if (b.contains("args")) out.args = v.strings(b["args"], "build.args");
  row_of(out.system).parse(v, b, out);
  if (b.contains("targets")) out.targets = v.strings(b["targets"], "build.targets");
  check_targets(v, out);
  if (b.contains("without_cuda_args")) out.without_cuda_args = v.strings(b["without_cuda_args"], "build.without_cuda_args");
}

const char* to_string(build_system s) { return row_of(s).name; }
bool has_bench_targets(build_system s) { return row_of(s).bench_targets; }
bool builds_in_source(build_system s) { return row_of(s).in_source; }

}  // namespace abtest
