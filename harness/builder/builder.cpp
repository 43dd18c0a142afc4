// Variant builds: the source tree (a worktree when toggles patch it), then the build system's own
// steps (build_system_driver: one file per system), through a compiler cache, a log per build, a
// hash per produced program and what the build cost.
#include "harness/builder/builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "harness/builder/build_system_driver.hpp"
#include "harness/builder/file_text.hpp"
#include "harness/core/sha256.hpp"
#include "harness/exec/host.hpp"
#include "harness/exec/git.hpp"
#include "harness/exec/process.hpp"
#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
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

std::string defaults_key(const variant& v, const std::set<std::string>& pinned, const manifest& m) {
  std::string key = "defaults";
  for (const auto& t : m.toggles) {
    if (!pinned.count(t.id)) continue;
    const auto it = v.levels.find(t.id);
    const std::string& level = it == v.levels.end() ? t.off() : it->second;
    key += t.two_level() && level == t.on ? "+" + t.id : fmt::format("+{}={}", t.id, level);
  }
  return key;
}

bool hands(const builder_options& options, const std::string& id) { return !options.pinned || options.pinned->count(id) > 0; }

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
    if (const std::string* name = t.kind->run_variable(t)) env[*name] = t.value_of(levels.at(t.id));
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
    if (wanted.count(program_of_target(t))) out.push_back(t);
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

std::string builder::key(const variant& v) const {
  const variant bv = build_part(v, m_);
  if (!options_.pinned) return bv.key(m_);
  std::set<std::string> pinned;  // the build's part of them: env toggles change no build
  for (const auto& id : *options_.pinned)
    if (const toggle_spec* t = m_.find_toggle(id); t && t->changes_build()) pinned.insert(id);
  return defaults_key(bv, pinned, m_);
}

fs::path builder::folder(const variant& v) const {
  std::string name = options_.pinned ? key(v) : build_part(v, m_).folder_name(m_);
  for (char& c : name)
    if (c == '=') c = '-';
  return options_.build_root / (name + options_.folder_suffix);
}

std::vector<std::string> builder::configure_command(const variant& v) const {
  std::string output;
  std::ofstream log;
  const build_output_fn none;
  const variant bv = build_part(v, m_);
  const fs::path dir = m_.needs_worktrees() ? folder(v) / "build" : folder(v);
  const build_job j{m_, options_, bv, m_.source_dir, dir, options_.targets, *options_.without_cuda, {}, log, output, none};
  return driver_for(m_.build.system).configure_command(j);
}

command_line builder::build_command_line(const variant& v) const {
  std::string output;
  std::ofstream log;
  const build_output_fn none;
  const variant bv = build_part(v, m_);
  const build_job j{m_, options_, bv, m_.source_dir, folder(v) / "build", options_.targets, *options_.without_cuda, {}, log, output, none};
  return expand_build_command(j);
}

resolved_toggles builder::resolved_in(const variant& v, resolved_toggles from_tool) const {
  // What the tool did not read back: a handed level is what it was given; a toggle left to the
  // project is unknown (a Meson option, a command's variable the project sets itself).
  const auto levels = v.all_levels(m_);
  for (const auto& t : m_.toggles) {
    if (!t.changes_build() || from_tool.count(t.id)) continue;
    resolved_toggle r;
    r.handed = hands(options_, t.id) || t.changes_source();  // a patch is applied or not: abtest's doing
    if (r.handed) {
      r.level = levels.at(t.id);
      r.value = t.changes_source() ? *r.level : t.value_of(*r.level).value_or("");
    }
    from_tool[t.id] = r;
  }
  return from_tool;
}

build_outcome builder::build(const variant& requested, const build_output_fn& on_output) const {
  const variant v = build_part(requested, m_);
  build_outcome out;
  out.v = v;
  out.key = key(v);
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
  const build_system_driver& system = driver_for(m_.build.system);
  compiler_cache cache = system.uses_compiler_cache()
                             ? compiler_cache::ccache_for(out.dir, common_ancestor(tree.source, options_.build_root))
                             : compiler_cache{};
  const build_job job{m_, options_, v, tree.source, out.dir, options_.targets, *options_.without_cuda, cache.env(), log, output,
                      on_output};
  cache.begin();
  const system_result r = system.build(job);
  out.cost = [&] {
    build_cost c = system.uses_compiler_cache() ? cache.finish() : build_cost{};
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
  out.resolved = resolved_in(v, r.resolved);
  bool ok = r.ok;
  out.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (ok) {
    std::string all;
    std::set<std::string> built;
    for (const auto& t : options_.targets) built.insert(program_of_target(t));
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
  static const std::regex unknown_target("unknown target '([^']+)'|no (?:bin|bench) target named `([^`]+)`");
  for (std::sregex_iterator it(output.begin(), output.end(), unknown_target), end; it != end; ++it)
    out.missing_targets.push_back((*it)[1].matched ? (*it)[1] : (*it)[2]);
  out.ok = ok;
  out.log_tail = last_lines(output, 30);
  return out;
}

}  // namespace abtest
