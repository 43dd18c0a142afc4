// Variant builds: the source tree (a worktree when toggles patch it), then the build system's own
// steps — cmake configure once (afresh when its arguments change) + incremental build, `cargo
// build` with the variant's features, or the project's build command — through a compiler cache,
// a log per build, a hash per produced program and what the build cost.
#include "harness/build/builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "harness/build/cmake_file_api.hpp"
#include "harness/build/file_text.hpp"
#include "harness/core/sha256.hpp"
#include "harness/exec/host.hpp"
#include "harness/exec/git.hpp"
#include "harness/exec/process.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// How much of one tool run's output the builder keeps in memory (and the log): a runaway build
// that prints without end is cut to its head and its last lines.
constexpr std::size_t output_limit = 16u << 20;
constexpr std::size_t tail_limit = 8u << 10;

// One build of one variant: where it happens, what it may use, and where its output goes.
struct build_job {
  const manifest& m;
  const builder_options& options;
  const variant& v;
  fs::path source;                           // the variant's source_dir (the project's, or in its worktree)
  fs::path dir;                              // its build folder
  std::vector<std::string> targets;
  bool without_cuda = false;
  std::map<std::string, std::string> env;    // the compiler cache's
  std::ofstream& log;
  std::string& output;
  const build_output_fn& on_output;

  // Runs a build tool in its own process group. Its output (stdout and stderr in the order they
  // come) goes to the log as it arrives and to `on_output` line by line, so that progress can be
  // shown while it runs; true on exit 0.
  bool run(const std::vector<std::string>& argv, const fs::path& cwd = {},
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

  // One run's output on its way to the log, `output` (its head up to output_limit, then its tail)
  // and the caller's hook.
  struct tool_output {
    const build_job& job;
    std::size_t kept = 0;
    std::string tail;
    void keep(std::string_view text) {
      if (kept + text.size() <= output_limit) {
        kept += text.size();
        job.log << text;
        job.output += text;
        return;
      }
      kept = output_limit + 1;
      tail += text;
      if (tail.size() > 2 * tail_limit) tail.erase(0, tail.size() - tail_limit);
    }
    void line(std::string_view text) {
      keep(fmt::format("{}\n", text));
      if (job.on_output) job.on_output(text);
    }
    void finish() {
      if (kept > output_limit) {
        if (tail.size() > tail_limit) tail.erase(0, tail.size() - tail_limit);
        keep_always("\n[... output truncated ...]\n" + tail);
      }
      job.log << std::flush;
    }
    void keep_always(const std::string& text) {
      job.log << text;
      job.output += text;
    }
  };

  std::string version_of(const std::vector<std::string>& argv) const {
    exec::process_options o;
    o.argv = argv;
    o.hardware_counters = false;
    o.timeout_s = 30;
    const auto r = exec::run_process(o);
    return r.started && r.exit_code == 0 ? first_line(r.out.head) : std::string{};
  }
};

// What a build system step hands back to the builder.
struct system_result {
  bool ok = false;
  bool configured_now = false;
  fs::path bin_dir;
  std::map<std::string, fs::path> programs;  // target → file, where the build system says
  std::string compiler, flags, tool_version;
  std::optional<int> units_compiled, links;  // from the tool's own output where the cache cannot tell
};

// --- CMake ----------------------------------------------------------------------------------

// Where the project's CMake put each program (the file API's codemodel): a program built in a
// subfolder is found there.
std::map<std::string, fs::path> file_api_artifacts(const fs::path& dir) {
  std::map<std::string, fs::path> out;
  for (const auto& t : read_codemodel(dir))
    if (t.type == "EXECUTABLE" && !t.artifact.empty()) out[t.name] = t.artifact;
  return out;
}

std::vector<std::string> cmake_configure_command(const build_job& j, const std::vector<std::string>& extra) {
  const manifest& m = j.m;
  std::vector<std::string> argv = {"cmake", "-S", j.source.string(), "-B", j.dir.string(),
                                   "-G", m.build.generator, "-DCMAKE_BUILD_TYPE=" + m.build.build_type};
  // Every compiler through the cache (DESIGN §5): CUDA too, so kernels are compiled once.
  if (const fs::path ccache = find_on_path("ccache"); !ccache.empty())
    for (const char* lang : {"C", "CXX", "CUDA"})
      argv.push_back(fmt::format("-DCMAKE_{}_COMPILER_LAUNCHER={}", lang, ccache.string()));
  for (const auto& arg : m.build.cmake_args) argv.push_back(arg);
  if (j.without_cuda)
    for (const auto& arg : m.build.without_cuda_args) argv.push_back(arg);
  for (const auto& arg : extra) argv.push_back(arg);
  // Every option toggle, off levels too, so a folder never keeps a level from an earlier configure.
  const auto levels = j.v.all_levels(m);
  for (const auto& t : m.toggles)
    if (t.kind == toggle_kind::option) argv.push_back(fmt::format("-D{}={}", t.option, *t.value_of(levels.at(t.id))));
  return argv;
}

system_result build_cmake(const build_job& j) {
  system_result r;
  r.bin_dir = j.dir;
  const auto configure = cmake_configure_command(j, j.options.extra_cmake_args);
  const std::string stamp_text = fmt::format("{}", fmt::join(configure, "\n"));
  const fs::path stamp = j.dir / "abtest-configure.txt";
  bool ok = true;
  if (!fs::exists(j.dir / "CMakeCache.txt") || !fs::exists(stamp) || read_text_file(stamp) != stamp_text) {
    r.configured_now = true;
    // The arguments changed (or the last configure failed): start from a fresh cache, so a
    // -D removed from cmake_args does not live on in it.
    auto argv = configure;
    if (fs::exists(j.dir / "CMakeCache.txt")) argv.insert(argv.begin() + 1, "--fresh");
    request_codemodel(j.dir);
    ok = j.run(argv);
    if (ok) std::ofstream(stamp, std::ios::trunc) << stamp_text;
    else fs::remove(stamp);
  }
  if (ok) {
    std::vector<std::string> argv = {"cmake", "--build", j.dir.string()};
    if (j.options.jobs > 0) argv.insert(argv.end(), {"--parallel", std::to_string(j.options.jobs)});
    if (!j.targets.empty()) {
      argv.push_back("--target");
      for (const auto& t : j.targets) argv.push_back(t);
    }
    const size_t before = j.output.size();
    ok = j.run(argv);
    // "[3/7] Linking CXX executable bench" (Ninja), "[ 50%] Linking CXX static library" (Makefiles).
    static const std::regex link_line(R"(Linking (C|CXX|CUDA|Fortran) (executable|static library|shared library|shared module))");
    const std::string built = j.output.substr(before);
    r.links = static_cast<int>(std::distance(std::sregex_iterator(built.begin(), built.end(), link_line), std::sregex_iterator()));
  }
  const auto cache = read_cmake_cache(j.dir / "CMakeCache.txt");
  const auto value = [&](const std::string& key) { return cache.count(key) ? cache.at(key).value : std::string{}; };
  r.compiler = value("CMAKE_CXX_COMPILER");
  std::string upper = j.m.build.build_type;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  r.flags = value("CMAKE_CXX_FLAGS") + " " + value("CMAKE_CXX_FLAGS_" + upper);
  r.tool_version = j.version_of({"cmake", "--version"});
  r.programs = file_api_artifacts(j.dir);
  r.ok = ok;
  return r;
}

// --- Cargo ----------------------------------------------------------------------------------

// The folder under the target dir that a profile writes to (The Cargo Book, "Profiles").
std::string cargo_profile_dir(const std::string& profile) {
  if (profile == "dev" || profile == "test") return "debug";
  if (profile == "bench") return "release";
  return profile;
}

system_result build_cargo(const build_job& j) {
  system_result r;
  r.bin_dir = j.dir / cargo_profile_dir(j.m.build.profile);
  std::vector<std::string> argv = {"cargo", "build", "--profile", j.m.build.profile, "--manifest-path",
                                   (j.source / "Cargo.toml").string()};
  for (const auto& t : j.targets) argv.insert(argv.end(), {"--bin", t});
  std::set<std::string> features;
  const auto levels = j.v.all_levels(j.m);
  for (const auto& t : j.m.toggles)
    if (t.kind == toggle_kind::feature)
      if (const auto it = t.features.find(levels.at(t.id)); it != t.features.end()) features.insert(it->second.begin(), it->second.end());
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
  if (r.ok) {
    fs::create_directories(r.bin_dir);
    for (const auto& t : j.targets) {
      std::error_code ec;
      fs::copy_file(shared / cargo_profile_dir(j.m.build.profile) / t, r.bin_dir / t, fs::copy_options::overwrite_existing, ec);
      if (ec) j.output += fmt::format("abtest: cannot copy {} to {}: {}\n", t, r.bin_dir.string(), ec.message());
    }
  }
  if (lock >= 0) ::close(lock);  // releases the lock
  const std::string built = j.output.substr(before);
  static const std::regex compiling(R"((^|\n)\s*Compiling \S+ v)");
  r.units_compiled = static_cast<int>(std::distance(std::sregex_iterator(built.begin(), built.end(), compiling), std::sregex_iterator()));
  r.tool_version = j.version_of({"cargo", "-V"});
  r.compiler = j.version_of({"rustc", "-V"});
  r.flags = fmt::format("--profile {}{}", j.m.build.profile,
                        features.empty() ? std::string{} : fmt::format(" --features {}", fmt::join(features, ",")));
  for (const auto& t : j.targets) r.programs[t] = r.bin_dir / t;
  return r;
}

// --- A command ------------------------------------------------------------------------------

command_line expand_build_command(const build_job& j) {
  command_line c;
  std::map<std::string, std::string> values = {{"build_dir", j.dir.string()}};
  const auto levels = j.v.all_levels(j.m);
  for (const auto& t : j.m.toggles)
    if (t.kind == toggle_kind::var) values[t.var] = c.env[t.var] = *t.value_of(levels.at(t.id));
  for (const auto& arg : j.m.build.command) c.argv.push_back(expand_placeholders(arg, values));
  if (j.without_cuda)
    for (const auto& a : j.m.build.without_cuda_args) c.argv.push_back(a);
  return c;
}

system_result build_command(const build_job& j) {
  system_result r;
  r.bin_dir = (j.source / j.m.build.bin).lexically_normal();
  const command_line c = expand_build_command(j);
  // The folder was last built by another command line (a level's value, or build.command, was
  // edited): the project's build may not see that its outputs are stale, so it starts from a clean
  // tree, as a CMake folder is configured afresh. The worktree is abtest's own.
  std::string stamp_text = fmt::format("{}\n", fmt::join(c.argv, "\n"));
  for (const auto& [k, val] : c.env) stamp_text += fmt::format("${}={}\n", k, val);
  const fs::path stamp = j.dir / "abtest-command.txt";
  // Only ever in abtest's own worktree (<top>/src beside <top>/build), never in the user's tree.
  const bool own_worktree = j.source.parent_path() == j.dir.parent_path() && j.source.filename() == "src";
  if (own_worktree && fs::exists(stamp) && read_text_file(stamp) != stamp_text) {
    j.output += "abtest: the build command changed since this folder's last build: cleaning its worktree\n";
    exec::run_git(j.source, {"clean", "-fdxq"});
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(j.dir, ec)) fs::remove_all(e.path(), ec);
  }
  std::ofstream(stamp, std::ios::trunc) << stamp_text;
  r.ok = j.run(c.argv, j.source, c.env);
  r.flags = fmt::format("{}", fmt::join(c.argv, " "));
  for (const auto& t : j.targets) r.programs[t] = r.bin_dir / t;
  return r;
}

}  // namespace

source_state read_source_state(const fs::path& dir) {
  source_state s;
  const exec::git_result head = exec::run_git(dir, {"rev-parse", "HEAD"});
  if (!head.ok) return s;
  s.commit = head.out.substr(0, head.out.find('\n'));
  const exec::git_result status = exec::run_git(dir, {"status", "--porcelain", "--untracked-files=no"});
  s.dirty = status.ok && !status.out.empty();
  return s;
}

variant build_part(const variant& v, const manifest& m) {
  variant out;
  for (const auto& [id, level] : v.levels)
    if (const toggle_spec* t = m.find_toggle(id); !t || t->changes_build()) out.levels[id] = level;
  return out;
}

std::vector<std::pair<std::string, std::string>> handed_values(const variant& v, const manifest& m) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto levels = v.all_levels(m);
  for (const auto& t : m.toggles)
    if (t.changes_build() && !t.values.empty()) out.emplace_back(t.id, *t.value_of(levels.at(t.id)));
  return out;
}

exec::env_changes run_env(const variant& v, const manifest& m) {
  exec::env_changes env;
  const auto levels = v.all_levels(m);
  for (const auto& t : m.toggles)
    if (t.kind == toggle_kind::env) env[t.var] = t.value_of(levels.at(t.id));
  return env;
}

std::string program_digest(const std::string& binaries_digest, const exec::env_changes& env) {
  if (env.empty() || binaries_digest.empty()) return binaries_digest;
  std::string text = binaries_digest + "\n";
  // "NAME=" (set, empty) and "NAME unset" differ; a name holds neither '=' nor ' '.
  for (const auto& [k, val] : env) text += val ? k + "=" + *val + "\n" : k + " unset\n";
  return sha256_hex(text);
}

std::vector<std::string> targets_for(const manifest& m, const std::vector<std::string>& benchmarks) {
  if (benchmarks.empty()) return m.build.targets;
  std::set<std::string> wanted;
  for (const auto& name : benchmarks) {
    const benchmark_spec* b = m.find_benchmark(name);
    if (!b) continue;
    const auto programs = benchmark_programs(m, *b);
    if (programs.empty()) return m.build.targets;  // a program we cannot trace: build all
    wanted.insert(programs.begin(), programs.end());
  }
  std::vector<std::string> out;
  for (const auto& t : m.build.targets)
    if (wanted.count(t)) out.push_back(t);
  return out;
}

builder::builder(const manifest& m, builder_options options) : m_(m), options_(std::move(options)) {
  if (options_.build_root.empty()) options_.build_root = m_.state_dir() / "build";
  if (options_.targets.empty()) options_.targets = m_.build.targets;
  if (!options_.without_cuda) options_.without_cuda = !exec::host_has_cuda_device();
  if (m_.needs_worktrees()) snapshot_ = snapshot_source(m_);
}

static void keep_state_out_of_git(const manifest& m) {
  // A .gitignore of `*` inside the state folder keeps it out of `git status` and `git add -A`
  // without touching the project's own .gitignore.
  std::error_code ec;
  fs::create_directories(m.state_dir(), ec);
  if (!fs::exists(m.state_dir() / ".gitignore")) std::ofstream(m.state_dir() / ".gitignore") << "*\n";
}

fs::path builder::folder(const variant& v) const {
  return options_.build_root / (build_part(v, m_).folder_name(m_) + options_.folder_suffix);
}

std::vector<std::string> builder::configure_command(const variant& v) const {
  std::string output;
  std::ofstream log;
  const build_output_fn none;
  const variant bv = build_part(v, m_);
  const fs::path dir = m_.needs_worktrees() ? folder(v) / "build" : folder(v);
  const build_job j{m_, options_, bv, m_.source_dir, dir, options_.targets, *options_.without_cuda, {}, log, output, none};
  return cmake_configure_command(j, options_.extra_cmake_args);
}

command_line builder::build_command_line(const variant& v) const {
  std::string output;
  std::ofstream log;
  const build_output_fn none;
  const variant bv = build_part(v, m_);
  const build_job j{m_, options_, bv, m_.source_dir, folder(v) / "build", options_.targets, *options_.without_cuda, {}, log, output, none};
  return expand_build_command(j);
}

build_outcome builder::build(const variant& requested, const build_output_fn& on_output) const {
  const variant v = build_part(requested, m_);
  build_outcome out;
  out.v = v;
  out.key = v.key(m_);
  const fs::path top = folder(v);
  // With worktrees: <top>/src is the variant's worktree and <top>/build its build folder, so the
  // paths below them are the same in every variant and the compiler cache can share objects.
  out.dir = m_.needs_worktrees() ? top / "build" : top;
  out.log_path = top / "abtest-build.log";
  out.started_at_unix = now_unix();
  const auto t0 = std::chrono::steady_clock::now();
  keep_state_out_of_git(m_);
  fs::create_directories(out.dir);
  std::ofstream log(out.log_path, std::ios::trunc);
  std::string output;

  const source_tree tree = prepare_source_tree(m_, v, snapshot_, top / "src");
  out.applied = tree.applied;
  if (m_.needs_worktrees()) {
    out.source = {snapshot_.head, snapshot_.dirty};
    if (!snapshot_.untracked.empty() && !std::exchange(untracked_said_, true))
      out.cost.notes.push_back(fmt::format("{} untracked file(s) are not in the worktrees (e.g. {}) — commit or `git add` them",
                                           snapshot_.untracked.size(), snapshot_.untracked.front()));
  } else {
    out.source = read_source_state(m_.source_dir);
  }
  if (!tree.ok) {
    output = fmt::format("abtest: the variant's sources could not be prepared: {}\n", tree.error);
    log << output;
    out.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.log_tail = last_lines(output, 30);
    return out;
  }

  // The cache's base directory holds both the sources and the build folders.
  compiler_cache cache = m_.build.system == build_system::cargo
                             ? compiler_cache{}  // Cargo's shared target folder is the cache
                             : compiler_cache::ccache_for(out.dir, common_ancestor(tree.source, options_.build_root));
  const build_job job{m_, options_, v, tree.source, out.dir, options_.targets, *options_.without_cuda, cache.env(), log, output,
                      on_output};
  cache.begin();
  system_result r;
  switch (m_.build.system) {
    case build_system::cmake: r = build_cmake(job); break;
    case build_system::cargo: r = build_cargo(job); break;
    case build_system::command: r = build_command(job); break;
  }
  out.cost = [&] {
    build_cost c = m_.build.system == build_system::cargo ? build_cost{} : cache.finish();
    c.notes.insert(c.notes.begin(), out.cost.notes.begin(), out.cost.notes.end());
    return c;
  }();
  if (r.units_compiled && !out.cost.objects_compiled) out.cost.objects_compiled = r.units_compiled;
  out.cost.links = r.links;
  if (*options_.without_cuda && !m_.build.without_cuda_args.empty())
    out.cost.notes.push_back(fmt::format("no CUDA device on this host: built with {} (kernels that cannot run here are not built)",
                                         fmt::join(m_.build.without_cuda_args, " ")));
  out.configured_now = r.configured_now;
  out.bin_dir = r.bin_dir;
  out.compiler = r.compiler;
  out.flags = r.flags;
  out.tool_version = r.tool_version;
  bool ok = r.ok;
  out.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (ok) {
    std::string all;
    const std::set<std::string> built(options_.targets.begin(), options_.targets.end());
    for (const auto& target : benchmark_programs(m_)) {
      if (!built.empty() && !built.count(target)) continue;
      const auto it = r.programs.find(target);
      const fs::path bin = it != r.programs.end() ? it->second : r.bin_dir / target;
      if (!fs::exists(bin)) {
        ok = false;
        output += fmt::format("abtest: the build succeeded but produced no {} — is \"{}\" a target of {}?\n", bin.string(),
                              target, m_.source_dir.string());
        continue;
      }
      const std::string hash = sha256_file(bin);
      out.binaries[target] = {bin, hash};
      all += target + "=" + hash + "\n";
    }
    // Nothing hashed (no `{bin}/NAME` program to trace): unknown, never "the same program".
    out.binaries_digest = all.empty() ? std::string{} : sha256_hex(all);
  }
  // A target the project does not define is the common first-run mistake: name them instead of
  // leaving the user to find the build tool's line in the log.
  static const std::regex unknown_target("unknown target '([^']+)'|no bin target named `([^`]+)`");
  for (std::sregex_iterator it(output.begin(), output.end(), unknown_target), end; it != end; ++it)
    out.missing_targets.push_back((*it)[1].matched ? (*it)[1] : (*it)[2]);
  out.ok = ok;
  out.log_tail = last_lines(output, 30);
  return out;
}

}  // namespace abtest
