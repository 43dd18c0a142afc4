// The build systems abtest drives, by the manifest's build.system: the one place a new system is
// registered (its driver in a file of its own, its manifest keys a row of system_rows() in
// core/manifest_build.cpp).
#include <fstream>
#include <iterator>
#include <regex>

#include "harness/builder/build_system_driver.hpp"
#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {

const build_system_driver& driver_for(build_system s) {
  switch (s) {
    case build_system::cmake: return cmake_driver();
    case build_system::cargo: return cargo_driver();
    case build_system::command: return command_driver();
    case build_system::meson: return meson_driver();
  }
  return cmake_driver();
}

configure_outcome configure_once(const build_job& j, const std::vector<std::string>& line, const std::string& configured,
                                 const std::string& afresh, std::size_t afresh_at, const std::function<void()>& before) {
  namespace fs = std::filesystem;
  configure_outcome out;
  const std::string stamp_text = fmt::format("{}", fmt::join(line, "\n"));
  const fs::path stamp = j.dir / "abtest-configure.txt";
  if (fs::exists(j.dir / configured) && fs::exists(stamp) && read_text_file(stamp) == stamp_text) return out;
  out.ran = true;
  auto argv = line;
  if (fs::exists(j.dir / configured) && afresh_at <= argv.size()) argv.insert(argv.begin() + static_cast<std::ptrdiff_t>(afresh_at), afresh);
  if (before) before();
  out.ok = j.run(argv);
  if (out.ok) std::ofstream(stamp, std::ios::trunc) << stamp_text;
  else fs::remove(stamp);
  return out;
}

std::vector<std::string> option_definitions(const build_job& j) {
  std::vector<std::string> out;
  const auto levels = j.v.all_levels(j.m);
  for (const auto& t : j.m.toggles)
    if (const auto value = t.value_of(levels.at(t.id)); value && hands(j.options, t.id))  // an env level's null: no value
      if (auto d = t.kind->configure_definition(t, *value)) out.push_back(std::move(*d));
  return out;
}

int count_matches(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

}  // namespace abtest
