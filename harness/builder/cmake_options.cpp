// Option roles by the words of their names, and the package a failed configure asks for.
#include "harness/builder/cmake_options.hpp"

#include "harness/builder/toggle_ids.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>
#include <string_view>
#include <utility>
#include <vector>

namespace abtest {
namespace {

template <std::size_t N>
bool any_of_words(const std::vector<std::string>& words, const std::array<std::string_view, N>& set) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& w) { return std::find(set.begin(), set.end(), w) != set.end(); });
}

// The Debian development package of a CMake package or repository name, lower case; empty when
// not known.
std::string debian_package(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // Each Debian package with the names CMake packages and repositories give it.
  struct package_names {
    std::string_view package;
    std::array<std::string_view, 2> names;
  };
  static constexpr std::array<package_names, 19> known{{
      {"libgtest-dev", {"gtest", "googletest"}}, {"libgmock-dev", {"gmock"}},      {"libbenchmark-dev", {"benchmark"}},
      {"libpng-dev", {"png", "libpng"}},         {"zlib1g-dev", {"zlib"}},         {"libssl-dev", {"openssl"}},
      {"libboost-dev", {"boost"}},               {"libfmt-dev", {"fmt"}},          {"libspdlog-dev", {"spdlog"}},
      {"nlohmann-json3-dev", {"nlohmann_json"}}, {"libsqlite3-dev", {"sqlite3"}},  {"libbz2-dev", {"bzip2"}},
      {"liblz4-dev", {"lz4"}},                   {"libzstd-dev", {"zstd"}},        {"liblzma-dev", {"liblzma"}},
      {"libtbb-dev", {"tbb"}},                   {"libomp-dev", {"openmp"}},       {"libcli11-dev", {"cli11"}},
      {"libeigen3-dev", {"eigen3"}},
  }};
  for (const auto& k : known)
    if (std::find(k.names.begin(), k.names.end(), name) != k.names.end()) return std::string(k.package);
  return {};
}

std::string install_sentence(const std::string& what, const std::string& name) {
  const std::string package = debian_package(name);
  if (!package.empty())
    return fmt::format("it needs {} — install {} (sudo apt-get install {}), then run `abtest init` again", what, package, package);
  return fmt::format("it needs {} — install the development package that provides it (apt-cache search {}), then run "
                     "`abtest init` again", what, name);
}

}  // namespace

option_role option_role_of(const std::string& name) {
  const auto words = name_words(name);
  // A test or tool switch that names benchmarks too (google/benchmark's own BENCHMARK_ENABLE_TESTING)
  // is a build setting: those words come first. BUILD alone does not outweigh a benchmark word
  // (BUILD_BENCHMARKS).
  static constexpr std::array<std::string_view, 39> settings{
      "TEST",     "TESTS",     "TESTING",   "GTEST",     "GOOGLETEST", "GMOCK",    "FUZZ",     "FUZZER",   "FUZZERS",
      "FUZZING",  "SANITIZER", "SANITIZERS", "SANITIZE",  "ASAN",       "UBSAN",    "TSAN",     "MSAN",     "WARNINGS",
      "WERROR",   "COVERAGE",  "INSTALL",   "DOC",       "DOCS",       "EXAMPLE",  "EXAMPLES", "FETCH",    "DOWNLOAD",
      "PACKAGE",  "PACKAGING", "CCACHE",    "LINT",      "FORMAT",     "VERBOSE",  "TIDY",     "VALGRIND", "GCOV",
      "SYSTEM",   "PCH",       "UNITY"};
  if (any_of_words(words, settings)) return option_role::build_setting;
  static constexpr std::array<std::string_view, 5> bench{"BENCHMARK", "BENCHMARKS", "BENCH", "BENCHES", "BENCHMARKING"};
  if (any_of_words(words, bench)) return option_role::benchmarks;
  static constexpr std::array<std::string_view, 1> build{"BUILD"};
  if (any_of_words(words, build)) return option_role::build_setting;
  return option_role::toggle;
}

std::string describe(option_role role) {
  switch (role) {
    case option_role::benchmarks: return "a benchmark switch";
    case option_role::build_setting: return "a build setting, not an optimization";
    case option_role::toggle: return "a candidate toggle";
  }
  return {};
}

std::optional<std::string> missing_package_hint(const std::string& out) {
  std::smatch m;
  // find_package in config mode: `Could not find a package configuration file provided by "GTest"`.
  static const std::regex config_re(R"re(provided by\s+"([A-Za-z0-9_.+-]+)")re");
  if (std::regex_search(out, m, config_re)) return install_sentence(fmt::format("the package {}", m[1].str()), m[1]);
  // A Find module: `Could NOT find PNG (missing: PNG_LIBRARY PNG_PNG_INCLUDE_DIR)`.
  static const std::regex module_re(R"re(Could NOT find ([A-Za-z0-9_.+-]+))re");
  if (std::regex_search(out, m, module_re)) return install_sentence(fmt::format("the package {}", m[1].str()), m[1]);
  // pkg-config: `No package 'libfoo' found`, or pkg_check_modules's list of required packages.
  static const std::regex pkg_re(R"re(No package '([A-Za-z0-9_.+-]+)' found|required packages were not found:\s*\n\s*-\s*([A-Za-z0-9_.+-]+))re");
  if (std::regex_search(out, m, pkg_re)) {
    const std::string name = m[1].matched ? m[1].str() : m[2].str();
    return install_sentence(fmt::format("the pkg-config package {}", name), name);
  }
  // FetchContent / ExternalProject with no network: the repository it tried names the package.
  static const std::regex fetch_re(R"re((?:clone|download|fetch)[^\n]*?(?:https?|git)://[^\s'"]*?/([A-Za-z0-9_.-]+?)(?:\.git|/archive[^\s'"]*|\.tar[^\s'"]*|\.zip)?['"\s])re",
                                   std::regex::icase);
  if (std::regex_search(out, m, fetch_re))
    return install_sentence(fmt::format("{}, which it tried to download (the network is not reachable); the package's own "
                                        "copy lets its find_package succeed instead", m[1].str()), m[1]);
  return std::nullopt;
}

}  // namespace abtest
