// Cargo: `cargo build` with the variant's features (the crate's `default` kept in force, and each
// feature toggle's resolved level read from `cargo metadata`) in one target folder shared by every
// variant (Cargo keeps each feature set's artifacts apart in it), the bin and bench programs that
// Cargo's JSON messages name copied to the variant's own folder under a lock (design §3.1).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <set>

#include "harness/builder/build_system_driver.hpp"
#include "harness/builder/cargo_features.hpp"
#include "harness/builder/cargo_text.hpp"
#include "harness/exec/process.hpp"
#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

// The folder under the target dir that a profile writes to (The Cargo Book, "Profiles").
std::string cargo_profile_dir(const std::string& profile) {
  if (profile == "dev" || profile == "test") return "debug";
  if (profile == "bench") return "release";
  return profile;
}

// The crate's [features] table (`cargo metadata`, offline: --no-deps reads only the package's own
// Cargo.toml); nullopt when cargo cannot say.
std::optional<cargo_feature_table> read_feature_table(const build_job& j) {
  exec::process_options o;
  const fs::path cargo_toml = j.source / "Cargo.toml";
  o.argv = {"cargo", "metadata", "--no-deps", "--format-version", "1", "--offline", "--manifest-path", cargo_toml.string()};
  o.working_dir = j.source;
  o.hardware_counters = false;
  o.timeout_s = 60;
  const auto res = exec::run_process(o);
  if (!res.started || res.exit_code != 0) return std::nullopt;
  return parse_cargo_features(res.out.head, fs::weakly_canonical(cargo_toml));
}

// The feature flags of the job's handed toggle levels with the crate's `default` list in force
// (cargo_features.hpp), and what every feature toggle resolved to: its features the build enables
// (design §5).
cargo_feature_flags toggle_features(const build_job& j, resolved_toggles& resolved) {
  std::set<std::string> wanted, unwanted;
  const auto levels = j.v.all_levels(j.m);
  for (const auto& t : j.m.toggles)
    if (const auto* features = t.kind->cargo_features(t); features && hands(j.options, t.id))
      for (const auto& [level, names] : *features) (level == levels.at(t.id) ? wanted : unwanted).insert(names.begin(), names.end());
  const auto table = read_feature_table(j);
  cargo_feature_flags f;
  if (table) f = feature_flags(*table, wanted, unwanted);
  else f.features = wanted;
  for (const auto& t : j.m.toggles) {
    const auto* features = t.kind->cargo_features(t);
    if (!features) continue;
    resolved_toggle rt;
    rt.handed = hands(j.options, t.id);
    if (table) {
      std::set<std::string> mine;
      for (const auto& [level, names] : *features)
        for (const auto& x : names)
          if (f.enabled.count(x)) mine.insert(x);
      rt.value = fmt::format("{}", fmt::join(mine, ","));
      rt.level = level_of_features(t, f.enabled);
    } else if (rt.handed) {
      rt.level = levels.at(t.id);  // unread: what was handed
    }
    resolved[t.id] = rt;
  }
  return f;
}

system_result build_cargo(const build_job& j) {
  system_result r;
  r.bin_dir = j.dir / cargo_profile_dir(j.m.build.profile);
  // JSON messages on stdout say where each executable is (a bench's name carries Cargo's hash);
  // rustc's diagnostics stay readable text on stderr.
  std::vector<std::string> argv = {"cargo", "build", "--profile", j.m.build.profile, "--manifest-path",
                                   (j.source / "Cargo.toml").string(), "--message-format=json-render-diagnostics"};
  for (const auto& p : j.m.build.packages) argv.insert(argv.end(), {"-p", p});
  for (const auto& t : j.targets)
    argv.insert(argv.end(), {program_of_target(t) == t ? "--bin" : "--bench", program_of_target(t)});
  const cargo_feature_flags flags = toggle_features(j, r.resolved);
  std::set<std::string> features = flags.features;
  features.insert(j.m.build.features.begin(), j.m.build.features.end());  // what every variant needs
  if (flags.no_default_features) argv.push_back("--no-default-features");
  if (!features.empty()) argv.insert(argv.end(), {"--features", fmt::format("{}", fmt::join(features, ","))});
  for (const auto& a : j.m.build.args) argv.push_back(a);
  if (j.without_cuda)
    for (const auto& a : j.m.build.without_cuda_args) argv.push_back(a);
  // One target folder for every variant of the project: Cargo keeps each feature set's artifacts
  // apart in it (their metadata hashes differ), so a variant compiles only the crates its features
  // change — dependencies, and variants built before, are reused. (A target folder per variant
  // through sccache 0.4 was tried first: it missed every dependency, whose compile lines carry
  // the variant's own --out-dir.) The programs are copied to the variant's folder, {bin},
  // under a lock, so a concurrent build cannot swap them in between.
  const fs::path shared = j.options.build_root / "cargo-target";
  fs::create_directories(shared);
  const int lock = ::open((shared / ".abtest-lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock >= 0) ::flock(lock, LOCK_EX);
  const size_t before = j.output.size();
  r.ok = j.run(argv, j.source, {{"CARGO_TARGET_DIR", shared.string()}, {"CARGO_TERM_COLOR", "never"}});
  r.configured_now = !fs::exists(r.bin_dir);
  const std::string built = j.output.substr(before);
  if (r.ok) {
    fs::create_directories(r.bin_dir);
    const auto made = cargo_executables(built);
    for (const auto& t : j.targets) {
      const std::string program = program_of_target(t);
      const char* kind = program == t ? "bin" : "bench";
      std::vector<const cargo_executable*> found;
      for (const auto& a : made)
        if (a.kind == kind && a.name == program && (found.empty() || found.front()->executable != a.executable)) found.push_back(&a);
      if (found.size() != 1) {
        std::vector<std::string> where;
        for (const auto* a : found) where.push_back(a->manifest_path.string());
        j.output += found.empty() ? fmt::format("abtest: cargo reported no {} executable \"{}\"\n", kind, program)
                                  : fmt::format("abtest: {} target \"{}\" is in several packages ({}) — name one in build.packages\n",
                                                kind, program, fmt::join(where, ", "));
        r.ok = false;
        continue;
      }
      std::error_code ec;
      fs::copy_file(found.front()->executable, r.bin_dir / program, fs::copy_options::overwrite_existing, ec);
      if (ec) j.output += fmt::format("abtest: cannot copy {} to {}: {}\n", found.front()->executable.string(), r.bin_dir.string(), ec.message());
    }
  }
  if (lock >= 0) ::close(lock);  // releases the lock
  r.units_compiled = count_matches(built, R"((^|\n)\s*Compiling \S+ v)");
  r.tool_version = j.version_of({"cargo", "-V"});
  r.compiler = j.version_of({"rustc", "-V"});
  r.flags = fmt::format("--profile {}{}{}", j.m.build.profile, flags.no_default_features ? " --no-default-features" : "",
                        features.empty() ? std::string{} : fmt::format(" --features {}", fmt::join(features, ",")));
  for (const auto& t : j.targets) r.programs[program_of_target(t)] = r.bin_dir / program_of_target(t);
  return r;
}

class cargo_system final : public build_system_driver {
 public:
  system_result build(const build_job& j) const override { return build_cargo(j); }
  bool uses_compiler_cache() const override { return false; }  // the shared target folder is the cache
};

}  // namespace

const build_system_driver& cargo_driver() {
  static const cargo_system d;
  return d;
}

}  // namespace abtest
