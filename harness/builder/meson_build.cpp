// Meson: `meson setup` once per folder (wiped and set up afresh when its arguments change), every
// option toggle as -D<option>=<value>, `meson compile` of the targets, and the programs found in
// the build's introspection (meson-info/intro-targets.json). Meson puts ccache in front of the
// compilers by itself when it is on the PATH; the builder's cache settings reach it through the
// environment, so its objects are shared across variants as CMake's are.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "harness/builder/build_system_driver.hpp"
#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

// Meson's --buildtype for the manifest's build_type: CMake's names are taken too, so a project that
// moves from one to the other keeps its manifest.
std::string buildtype(const std::string& build_type) {
  static const std::map<std::string, std::string> cmake_names = {
      {"Release", "release"}, {"Debug", "debug"}, {"RelWithDebInfo", "debugoptimized"}, {"MinSizeRel", "minsize"}};
  const auto it = cmake_names.find(build_type);
  return it != cmake_names.end() ? it->second : build_type;
}

std::vector<std::string> setup_line(const build_job& j) {
  std::vector<std::string> argv = {"meson", "setup", j.dir.string(), j.source.string(),
                                   "--buildtype=" + buildtype(j.m.build.build_type)};
  for (const auto& a : j.m.build.args) argv.push_back(a);
  if (j.without_cuda)
    for (const auto& a : j.m.build.without_cuda_args) argv.push_back(a);
  for (auto& d : option_definitions(j)) argv.push_back(std::move(d));
  return argv;
}

// What the build's introspection says: each executable's file, and the compiler of its first source.
struct introspection {
  std::map<std::string, fs::path> programs;
  std::string compiler, flags;
};

introspection introspect(const fs::path& dir) {
  introspection out;
  std::ifstream in(dir / "meson-info" / "intro-targets.json");
  const nlohmann::json targets = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!targets.is_array()) return out;
  for (const auto& t : targets) {
    if (t.value("type", "") != "executable" || !t.contains("filename") || t["filename"].empty()) continue;
    out.programs[t.value("name", "")] = t["filename"][0].get<std::string>();
    if (out.compiler.empty() && t.contains("target_sources") && !t["target_sources"].empty()) {
      const auto& s = t["target_sources"][0];
      out.compiler = fmt::format("{}", fmt::join(s.value("compiler", std::vector<std::string>{}), " "));
      out.flags = fmt::format("{}", fmt::join(s.value("parameters", std::vector<std::string>{}), " "));
    }
  }
  return out;
}

// What each option toggle ended up as: Meson's record of the folder's options
// (meson-info/intro-buildoptions.json), where meson_options.txt's default stands when abtest handed
// no -D (design §5). A boolean or a number is written as JSON writes it ("true", "300").
void read_options(const build_job& j, resolved_toggles& out) {
  std::ifstream in(j.dir / "meson-info" / "intro-buildoptions.json");
  const nlohmann::json options = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!options.is_array()) return;
  std::map<std::string, std::string> values;
  for (const auto& o : options)
    if (o.is_object() && o.contains("name") && o["name"].is_string() && o.contains("value"))
      values[o["name"].get<std::string>()] = o["value"].is_string() ? o["value"].get<std::string>() : o["value"].dump();
  for (const auto& t : j.m.toggles) {
    const std::string* option = t.kind->configure_option(t);
    if (!option) continue;
    resolved_toggle rt;
    rt.handed = hands(j.options, t.id);
    if (const auto it = values.find(*option); it != values.end()) {
      rt.value = it->second;
      rt.level = level_of_value(t, it->second);
    }
    out[t.id] = rt;
  }
}

system_result build_meson(const build_job& j) {
  system_result r;
  r.bin_dir = j.dir;
  const auto setup = setup_line(j);
  // Other arguments (or a failed setup): start from a clean folder, as CMake's --fresh does, so that
  // an option removed from the line does not live on in Meson's saved state.
  const configure_outcome c = configure_once(j, setup, "meson-private", "--wipe", 2);
  r.configured_now = c.ran;
  bool ok = c.ok;
  if (ok) {
    std::vector<std::string> argv = {"meson", "compile", "-C", j.dir.string()};
    if (j.options.jobs > 0) argv.insert(argv.end(), {"-j", std::to_string(j.options.jobs)});
    for (const auto& t : j.targets) argv.push_back(t);
    const std::size_t before = j.output.size();
    ok = j.run(argv);
    r.links = count_matches(j.output.substr(before), R"(Linking (static )?target )");
  }
  const introspection found = introspect(j.dir);
  r.programs = found.programs;
  r.compiler = found.compiler;
  r.flags = found.flags;
  read_options(j, r.resolved);
  r.tool_version = j.version_of({"meson", "--version"});
  r.ok = ok;
  return r;
}

class meson_system final : public build_system_driver {
 public:
  system_result build(const build_job& j) const override { return build_meson(j); }
  std::vector<std::string> configure_command(const build_job& j) const override { return setup_line(j); }
};

}  // namespace

const build_system_driver& meson_driver() {
  static const meson_system d;
  return d;
}

}  // namespace abtest
