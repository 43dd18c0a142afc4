// CMake: configure once per folder (afresh when its arguments change), every option toggle handed a
// level as -D<option>=<value>, each option toggle's value read back from the cache, an incremental `cmake --build` of the targets, and the programs found
// through CMake's file API (design §3.1).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>

#include "harness/builder/build_system_driver.hpp"
#include "harness/builder/cmake_file_api.hpp"
#include "harness/exec/host.hpp"
#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

// Where the project's CMake put each program (the file API's codemodel): a program built in a
// subfolder is found there.
std::map<std::string, fs::path> file_api_artifacts(const fs::path& dir) {
  std::map<std::string, fs::path> out;
  for (const auto& t : read_codemodel(dir))
    if (t.type == "EXECUTABLE" && !t.artifact.empty()) out[t.name] = t.artifact;
  return out;
}

std::vector<std::string> configure_line(const build_job& j, const std::vector<std::string>& extra) {
  const manifest& m = j.m;
  std::vector<std::string> argv = {"cmake", "-S", j.source.string(), "-B", j.dir.string(),
                                   "-G", m.build.generator, "-DCMAKE_BUILD_TYPE=" + m.build.build_type};
  // Every compiler through the cache (design §5): CUDA too, so kernels are compiled once.
  if (const fs::path ccache = find_on_path("ccache"); !ccache.empty())
    for (const char* lang : {"C", "CXX", "CUDA"})
      argv.push_back(fmt::format("-DCMAKE_{}_COMPILER_LAUNCHER={}", lang, ccache.string()));
  for (const auto& arg : m.build.cmake_args) argv.push_back(arg);
  if (j.without_cuda)
    for (const auto& arg : m.build.without_cuda_args) argv.push_back(arg);
  for (const auto& arg : extra) argv.push_back(arg);
  for (auto& d : option_definitions(j)) argv.push_back(std::move(d));
  return argv;
}

system_result build_cmake(const build_job& j) {
  system_result r;
  r.bin_dir = j.dir;
  const auto configure = configure_line(j, j.options.extra_cmake_args);
  // The arguments changed (or the last configure failed): start from a fresh cache, so a -D removed
  // from cmake_args does not live on in it.
  const configure_outcome c = configure_once(j, configure, "CMakeCache.txt", "--fresh", 1, [&] { request_codemodel(j.dir); });
  r.configured_now = c.ran;
  bool ok = c.ok;
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
    r.links = count_matches(j.output.substr(before), R"(Linking (C|CXX|CUDA|Fortran) (executable|static library|shared library|shared module))");
  }
  const auto cache = read_cmake_cache(j.dir / "CMakeCache.txt");
  const auto value = [&](const std::string& key) { return cache.count(key) ? cache.at(key).value : std::string{}; };
  r.compiler = value("CMAKE_CXX_COMPILER");
  std::string upper = j.m.build.build_type;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  r.flags = value("CMAKE_CXX_FLAGS") + " " + value("CMAKE_CXX_FLAGS_" + upper);
  // What each option toggle ended up as: the cache, where the project's option() put its default
  // when abtest handed it no -D (design §5). No cache (a configure that failed): nothing to read.
  if (!cache.empty())
    for (const auto& t : j.m.toggles) {
      const std::string* option = t.kind->configure_option(t);
      if (!option) continue;
      resolved_toggle rt;
      rt.handed = hands(j.options, t.id);
      if (const auto it = cache.find(*option); it != cache.end()) {
        rt.value = it->second.value;
        rt.level = level_of_value(t, it->second.value);
      }
      r.resolved[t.id] = rt;
    }
  r.tool_version = j.version_of({"cmake", "--version"});
  r.programs = file_api_artifacts(j.dir);
  r.ok = ok;
  return r;
}

class cmake_system final : public build_system_driver {
 public:
  system_result build(const build_job& j) const override { return build_cmake(j); }
  std::vector<std::string> configure_command(const build_job& j) const override {
    return configure_line(j, j.options.extra_cmake_args);
  }
};

}  // namespace

const build_system_driver& cmake_driver() {
  static const cmake_system d;
  return d;
}

}  // namespace abtest
