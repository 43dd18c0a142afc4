// Probing a project for `abtest init`: CMake options with benchmark switches turned ON and the Google
// Benchmark programs built and asked; Cargo through cargo_probe.cpp; a Makefile as a command build.
#include "harness/builder/project_probe.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <fstream>
#include <set>

#include "harness/builder/cargo_probe.hpp"
#include "harness/builder/cmake_file_api.hpp"
#include "harness/builder/cmake_options.hpp"
#include "harness/builder/gbench_list.hpp"
#include "harness/builder/toggle_ids.hpp"
#include "harness/builder/file_text.hpp"
#include "harness/core/errors.hpp"
#include "harness/exec/process.hpp"

namespace abtest {
namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
namespace {

// A help string as a title: a help written over several lines (libdeflate's are) on one, each run
// of whitespace one space.
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    else if (!out.empty() && out.back() != ' ') out += ' ';
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

fs::path existing_cmake_build(const fs::path& source) {
  for (const char* d : {"build", "out", "build/release", "build/Release"})
    if (fs::exists(source / d / "CMakeCache.txt")) return source / d;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(source, ec))
    if (e.is_directory() && e.path().filename().string().rfind("cmake-build-", 0) == 0 && fs::exists(e.path() / "CMakeCache.txt"))
      return e.path();
  return {};
}

bool is_on(const std::string& value) {
  std::string v = value;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return v == "ON" || v == "1" || v == "TRUE" || v == "YES" || v == "Y";
}

std::string output_of(const exec::process_result& r) {
  return r.out.head + (r.out.truncated ? r.out.tail : "") + "\n" + r.err.head + (r.err.truncated ? r.err.tail : "");
}

// Whether the build tool of a configured folder can read what CMake generated: Ninja cannot when
// the project names a target like one of the generator's own ("test": tarantool/small's
// `multiple rules generate test`).
bool build_tool_loads(const fs::path& dir) {
  exec::process_options o;
  o.hardware_counters = false;
  o.timeout_s = 120;
  o.argv = {"cmake", "--build", dir.string(), "--", "-n"};
  const auto r = exec::run_process(o);
  return r.started && r.exit_code == 0;
}

// `cmake -S source -B dir` with the codemodel requested and `defines` (-DNAME=VALUE) added. A
// failure is a user_error that says what to install when the output names a missing package.
void configure(const fs::path& source, const fs::path& dir, const std::vector<std::string>& defines, const std::string& generator) {
  request_codemodel(dir);
  exec::process_options o;
  o.hardware_counters = false;
  o.timeout_s = 600;
  o.argv = {"cmake", "-S", source.string(), "-B", dir.string(), "-DCMAKE_BUILD_TYPE=Release"};
  if (!fs::exists(dir / "CMakeCache.txt")) o.argv.insert(o.argv.end(), {"-G", generator});
  o.argv.insert(o.argv.end(), defines.begin(), defines.end());
  const auto r = exec::run_process(o);
  if (r.started && r.exit_code == 0) return;
  const std::string out = output_of(r);
  const auto hint = missing_package_hint(out);
  throw user_error(exit_code::usage,
                   fmt::format("configuring {} to read its options failed ({}):\n{}\n— {}", source.string(), fmt::join(o.argv, " "),
                               last_lines(r.started ? out : r.error, 25),
                               hint ? *hint : "fix the configure (or configure it yourself into build/), then run `abtest init` again"));
}

// Builds the programs that link Google Benchmark and asks each which benchmarks it registers:
// one manifest benchmark per program that registers any, filtered to one family when it
// registers many. Programs that do not build are left out, said, when others do; when none does, all are kept, unasked.
void add_gbench_programs(const fs::path& dir, const std::vector<cmake_target>& programs, const std::function<void(std::string_view)>& say,
                         project_draft& d) {
  json benchmarks = json::array(), targets = json::array();
  std::vector<std::string> names;
  for (const auto& t : programs) names.push_back(t.name);
  say(fmt::format("init: building {} to ask which benchmarks {} ({} --target …; log: {})", fmt::join(names, ", "),
                  programs.size() == 1 ? "it registers" : "each registers", "cmake --build", (dir / "init-build.log").string()));
  // All at once; when that fails, one by one: a program that does not build (zlib-ng's
  // benchmark_zlib_apps does not link against Debian's static libpng) leaves the others usable.
  std::string log;
  const auto build = [&](const std::vector<std::string>& targets) {
    exec::process_options b;
    b.hardware_counters = false;
    b.timeout_s = 3600;
    b.argv = {"cmake", "--build", dir.string(), "--target"};
    b.argv.insert(b.argv.end(), targets.begin(), targets.end());
    const auto r = exec::run_process(b);
    log += fmt::format("$ {}\n{}\n", fmt::join(b.argv, " "), output_of(r));
    return r.started && r.exit_code == 0;
  };
  std::set<std::string> built;
  if (build(names)) built.insert(names.begin(), names.end());
  else
    for (const auto& n : names)
      if (names.size() > 1 && build({n})) built.insert(n);
  { std::ofstream(dir / "init-build.log") << log; }
  const bool asked = !built.empty();
  const std::string hint = [&] { const auto h = missing_package_hint(log); return h ? " — " + *h : std::string(); }();
  if (!asked)
    d.to_do.push_back(fmt::format("building {} failed (see {}), so what they register is not known: check each benchmark's "
                                  "filter by hand{}",
                                  fmt::join(names, ", "), (dir / "init-build.log").string(), hint));
  for (const auto& t : programs) {
    std::string name;
    for (char c : t.name) name += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
    if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) name = "b_" + name;
    json command = {"{bin}/" + t.name, "--benchmark_format=json"};
    if (asked && !built.count(t.name)) {
      d.left_out.push_back(fmt::format("{} (links Google Benchmark but does not build here: see {}{})", t.name,
                                       (dir / "init-build.log").string(), hint));
      continue;
    }
    if (asked) {
      exec::process_options o;
      o.hardware_counters = false;
      o.timeout_s = 120;
      o.argv = {t.artifact.string(), "--benchmark_list_tests"};
      const auto r = exec::run_process(o);
      const auto list = parse_benchmark_list(r.started && r.exit_code == 0 ? r.out.head : std::string());
      if (list.names.empty()) {
        d.left_out.push_back(fmt::format("{} (links Google Benchmark but registers no benchmark: --benchmark_list_tests {})", t.name,
                                         r.started && r.exit_code == 0 ? "listed none" : "failed"));
        continue;
      }
      std::vector<std::string> families;
      for (const auto& f : list.families) families.push_back(fmt::format("{} ({})", f.name, f.count));
      if (list.names.size() > many_benchmarks && list.families.size() > 1) {
        command.push_back("--benchmark_filter=" + family_filter(list.families.front().name));
        d.to_do.push_back(fmt::format("{} registers {} benchmarks in {} families: {}. The draft measures only the first family "
                                      "(--benchmark_filter={}); set the filter to those your toggles change",
                                      t.name, list.names.size(), list.families.size(), fmt::join(families, ", "),
                                      family_filter(list.families.front().name)));
      } else {
        d.guessed.push_back(fmt::format("{} registers {} benchmark(s): {}", t.name, list.names.size(), fmt::join(families, ", ")));
      }
    }
    benchmarks.push_back({{"name", name.substr(0, 32)}, {"format", "gbench"}, {"command", command}});
    targets.push_back(t.name);
  }
  d.manifest["build"]["targets"] = targets;
  d.manifest["benchmarks"] = benchmarks;
}

void probe_cmake(const fs::path& source, const fs::path& probe_dir, const std::function<void(std::string_view)>& say, project_draft& d) {
  // A configured folder of the user's is read only when it already has a codemodel and its
  // benchmark switches are ON: init does not re-configure folders it does not own.
  fs::path dir = existing_cmake_build(source);
  if (!dir.empty() && !fs::exists(dir / ".cmake/api/v1/reply")) dir.clear();
  const auto benchmark_switches_off = [](const std::map<std::string, cmake_cache_entry>& cache) {
    std::vector<std::string> off;
    for (const auto& [name, e] : cache)
      if (!e.advanced && e.type == "BOOL" && name.rfind("CMAKE_", 0) != 0 && option_role_of(name) == option_role::benchmarks && !is_on(e.value))
        off.push_back(name);
    return off;
  };
  std::map<std::string, cmake_cache_entry> cache;
  if (!dir.empty()) cache = read_cmake_cache(dir / "CMakeCache.txt");
  std::vector<std::string> cmake_args, switched_on;
  std::string generator = cache.count("CMAKE_GENERATOR") ? cache.at("CMAKE_GENERATOR").value : "Ninja";
  if (dir.empty() || !benchmark_switches_off(cache).empty()) {
    // Into init's own folder, afresh: a cache an earlier init left there holds the benchmark
    // switches it turned ON, and the defaults are what the first configure must read. Benchmarks
    // hidden behind a switch that is OFF by default: configure again with it ON, and keep it ON
    // for every variant.
    const auto configure_probe = [&] {
      say(fmt::format("init: configuring {} into {} to read its options and targets", source.string(), probe_dir.string()));
      std::error_code ec;
      fs::remove_all(probe_dir, ec);
      configure(source, probe_dir, {}, generator);
      cache = read_cmake_cache(probe_dir / "CMakeCache.txt");
      switched_on = benchmark_switches_off(cache);
      cmake_args.clear();
      for (const auto& name : switched_on) cmake_args.push_back(fmt::format("-D{}=ON", name));
      if (!cmake_args.empty()) {
        say(fmt::format("init: configuring again with {} (the benchmarks are built only then)", fmt::join(cmake_args, " ")));
        configure(source, probe_dir, cmake_args, generator);
        cache = read_cmake_cache(probe_dir / "CMakeCache.txt");
      }
    };
    generator = "Ninja";
    configure_probe();
    if (!build_tool_loads(probe_dir)) {
      say("init: Ninja cannot read what this project generates (see `cmake --build` in the probe folder): configuring with "
          "Unix Makefiles instead");
      generator = "Unix Makefiles";
      configure_probe();
      d.guessed.push_back("build.generator \"Unix Makefiles\": Ninja cannot build this project (a target of the project has the "
                          "name of one of Ninja's own, e.g. \"test\")");
    }
    dir = probe_dir;
    d.guessed.push_back(fmt::format("configured the project into {} to read its options and targets", dir.string()));
    if (!cmake_args.empty())
      d.guessed.push_back(fmt::format("{} in build.cmake_args: the benchmark programs are built only with {}", fmt::join(cmake_args, " "),
                                      switched_on.size() == 1 ? "it" : "them"));
  } else {
    d.guessed.push_back(fmt::format("read the options and targets of the configured build folder {}", dir.string()));
  }
  const std::string project = cache.count("CMAKE_PROJECT_NAME") ? cache.at("CMAKE_PROJECT_NAME").value : source.filename().string();
  d.manifest["project"] = project;
  d.manifest["build"] = {{"system", "cmake"}, {"generator", generator}, {"build_type", "Release"}};

  // Options: the project's own BOOL entries and STRING entries with a STRINGS list (not CMake's,
  // not advanced). Benchmark switches and build settings are left out and listed. The baseline is
  // the value the cache holds now.
  std::vector<const cmake_cache_entry*> options;
  for (const auto& [name, e] : cache) {
    // CMake's own entries and its modules' (FetchContent's FETCHCONTENT_*), not the project's.
    if (e.advanced || name.rfind("CMAKE_", 0) == 0 || name.rfind("FETCHCONTENT_", 0) == 0 || name.rfind("CPM_", 0) == 0 ||
        name.find("_DIR") != std::string::npos)
      continue;
    if (!(e.type == "BOOL" || (e.type == "STRING" && e.strings.size() >= 2))) continue;
    if (const auto role = option_role_of(name); role != option_role::toggle) {
      const bool on = std::find(switched_on.begin(), switched_on.end(), name) != switched_on.end();
      d.left_out.push_back(fmt::format("{} ({}{})", name, describe(role),
                                       on ? ": ON in build.cmake_args"
                                          : role == option_role::benchmarks ? fmt::format(": left {}", e.value) : std::string()));
      continue;
    }
    options.push_back(&e);
  }
  std::vector<std::string> names, taken;
  for (const auto* e : options) names.push_back(e->name);
  const std::string prefix = common_prefix(names);
  json toggles = json::array();
  for (const auto* e : options) {
    json t = {{"id", toggle_id_for(e->name, prefix, taken)}, {"option", e->name}};
    if (e->type == "BOOL") {
      if (is_on(e->value)) t["levels"] = {"ON", "OFF"};  // the current value is the baseline
    } else {
      std::vector<std::string> levels{e->value};
      for (const auto& s : e->strings)
        if (s != e->value) levels.push_back(s);
      t["levels"] = levels;
    }
    if (const std::string title = one_line(e->help); !title.empty()) t["title"] = title;
    toggles.push_back(t);
  }
  if (!cmake_args.empty()) d.manifest["build"]["cmake_args"] = cmake_args;
  d.manifest["toggles"] = toggles;
  d.guessed.push_back(fmt::format("{} toggle(s) from CMake options (their ids are listed above)", options.size()));

  // Benchmarks: executables that link Google Benchmark, asked what they register.
  std::vector<cmake_target> gbench;
  std::vector<std::string> other;
  for (const auto& t : read_codemodel(dir)) {
    if (t.type != "EXECUTABLE") continue;
    if (t.link_command.find("benchmark") != std::string::npos) gbench.push_back(t);
    else if (t.name.find("bench") != std::string::npos || t.name.find("perf") != std::string::npos) other.push_back(t.name);
  }
  d.manifest["build"]["targets"] = json::array();
  d.manifest["benchmarks"] = json::array();
  if (!gbench.empty()) add_gbench_programs(dir, gbench, say, d);
  if (!other.empty())
    d.to_do.push_back(fmt::format("not Google Benchmark, but named like benchmark programs: {} — add each under \"benchmarks\" "
                                  "with format \"json\" (one JSON object on stdout) or \"lines\" and a pattern",
                                  fmt::join(other, ", ")));
}

void probe_make(const fs::path& source, project_draft& d) {
  d.manifest["project"] = source.filename().string();
  d.manifest["build"] = {{"system", "command"}, {"command", {"make", "-j2"}}, {"bin", "."}, {"targets", json::array()}};
  d.manifest["toggles"] = json::array();
  d.manifest["benchmarks"] = json::array();
  d.guessed.push_back("a Makefile: each variant runs `make -j2` in its own git worktree");
  d.to_do.push_back("name the programs the build makes in build.targets and build.bin, and add a benchmark for each");
  d.to_do.push_back("add toggles: \"var\" toggles become {NAME} in build.command and $NAME in its environment "
                    "(e.g. [\"make\", \"-j2\", \"OPT={OPT}\"]); \"patch\"/\"revert\" toggles need no change to the Makefile");
}

}  // namespace

project_draft probe_project(const fs::path& source, const fs::path& manifest_dir, const fs::path& probe_dir,
                            const std::function<void(std::string_view)>& say) {
  project_draft d;
  if (fs::exists(source / "CMakeLists.txt")) probe_cmake(source, probe_dir, say, d);
  else if (fs::exists(source / "Cargo.toml")) probe_cargo(source, say, d);
  else if (fs::exists(source / "Makefile") || fs::exists(source / "makefile") || fs::exists(source / "GNUmakefile")) probe_make(source, d);
  else
    throw user_error(exit_code::usage, fmt::format("{} has no CMakeLists.txt, Cargo.toml or Makefile — run `abtest init` in the "
                                                   "project's top folder, or write the manifest by hand (docs/manifest.md)",
                                                   source.string()));
  const fs::path rel = fs::relative(source, manifest_dir);
  d.manifest["source_dir"] = rel.empty() ? "." : rel.string();
  d.manifest["params"] = json::object();
  if (d.manifest["toggles"].empty())
    d.to_do.push_back("no toggles were found: add one per optimization (docs/design.md §3.1: option, feature, var, env, patch, revert)");
  if (d.manifest["benchmarks"].empty()) d.to_do.push_back("no benchmark program was found: add at least one under \"benchmarks\"");
  // Keys in the order a reader expects.
  json ordered = json::object();
  for (const char* k : {"project", "source_dir", "build", "params", "toggles", "benchmarks"}) ordered[k] = d.manifest[k];
  d.manifest = std::move(ordered);
  return d;
}

}  // namespace abtest
