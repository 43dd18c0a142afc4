// Probing a project for `abtest init`: CMake options and Google Benchmark programs from the cache
// and the file API, Cargo features and binaries from Cargo.toml, a Makefile as a command build.
#include "harness/build/project_probe.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "harness/build/cmake_file_api.hpp"
#include "harness/build/file_text.hpp"
#include "harness/core/errors.hpp"
#include "harness/exec/process.hpp"

namespace abtest {
namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
namespace {

// Options that choose what is built or how strictly, not how fast it runs.
bool looks_like_build_setting(const std::string& name) {
  static const std::regex re("(^|_)(BUILD|TEST|TESTS|TESTING|WERROR|DOC|DOCS|EXAMPLES?|INSTALL|SANITIZE|COVERAGE|FETCH|USE_SYSTEM|"
                             "ENABLE_TESTING|DOWNLOAD|PACKAGE|CCACHE|LINT|FORMAT|VERBOSE)(_|$)",
                             std::regex::icase);
  return std::regex_search(name, re);
}

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

// Words that say little in an id, left out when the id would be too long: LIBDEFLATE_GZIP_SUPPORT
// is GZIP once the prefix is gone.
bool filler_word(const std::string& w) {
  return w == "SUPPORT" || w == "ENABLE" || w == "ENABLED" || w == "USE" || w == "WITH" || w == "HAVE" || w == "OPTION";
}

// The words joined by '_' in at most `width` characters, as readable as it fits: filler words left
// out; the longest word (the first of equals) cut a letter at a time down to 4; words after the
// first left out, the last kept (it often tells two options apart); words cut down to 3; and only
// then the end cut off. COMPRESSION_SUPPORT → COMPRESSION, SIMD_ACCELERATED_DECOMPRESSION →
// SIMD_ACCEL_DECOM, VERY_LONG_NAME_FOR_FAST_PATH → VERY_FAST_PATH.
std::string fit_words(std::vector<std::string> words, std::size_t width, bool drop_fillers = true) {
  const auto joined = [&] { return fmt::format("{}", fmt::join(words, "_")); };
  if (joined().size() <= width) return joined();
  std::vector<std::string> kept;
  for (const auto& w : words)
    if (!filler_word(w)) kept.push_back(w);
  if (drop_fillers && !kept.empty()) words = kept;
  const auto shorten_to = [&](std::size_t shortest) {
    while (joined().size() > width) {
      auto longest = words.end();
      for (auto it = words.begin(); it != words.end(); ++it)
        if (it->size() > shortest && (longest == words.end() || it->size() > longest->size())) longest = it;
      if (longest == words.end()) return;
      longest->pop_back();
    }
  };
  shorten_to(4);
  while (joined().size() > width && words.size() > 2) words.erase(words.begin() + 1);
  shorten_to(3);
  std::string id = joined().substr(0, width);
  while (!id.empty() && id.back() == '_') id.pop_back();
  return id;
}

std::string common_prefix(const std::vector<std::string>& names) {
  if (names.size() < 2) return {};
  std::string p = names.front().substr(0, names.front().find('_') + 1);
  if (p.empty() || p.back() != '_') return {};
  for (const auto& n : names)
    if (n.rfind(p, 0) != 0) return {};
  return p;
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

void probe_cmake(const fs::path& source, const fs::path& probe_dir, project_draft& d) {
  // A configured folder of the user's is read only when it already has a codemodel: init does not
  // re-configure folders it does not own.
  fs::path dir = existing_cmake_build(source);
  if (!dir.empty() && !fs::exists(dir / ".cmake/api/v1/reply")) dir.clear();
  if (dir.empty()) {
    dir = probe_dir;
    request_codemodel(dir);
    exec::process_options o;
    o.hardware_counters = false;
    o.timeout_s = 600;
    o.argv = {"cmake", "-S", source.string(), "-B", dir.string(), "-DCMAKE_BUILD_TYPE=Release"};
    if (!fs::exists(dir / "CMakeCache.txt")) {
      const auto r = exec::run_process(o);
      if (!r.started || r.exit_code != 0)
        throw user_error(exit_code::usage, fmt::format("configuring {} to read its options failed:\n{}\n— fix the configure (or configure "
                                                       "it yourself into build/), then run `abtest init` again",
                                                       source.string(), r.err.tail.empty() ? r.err.head : r.err.tail));
    }
    d.guessed.push_back(fmt::format("configured the project into {} to read its options and targets", dir.string()));
  } else {
    d.guessed.push_back(fmt::format("read the options and targets of the configured build folder {}", dir.string()));
  }
  const auto cache = read_cmake_cache(dir / "CMakeCache.txt");
  const std::string project = cache.count("CMAKE_PROJECT_NAME") ? cache.at("CMAKE_PROJECT_NAME").value : source.filename().string();
  d.manifest["project"] = project;
  d.manifest["build"] = {{"system", "cmake"}, {"generator", "Ninja"}, {"build_type", "Release"}};

  // Options: the project's own BOOL entries and STRING entries with a STRINGS list (not CMake's,
  // not advanced, not build settings). The baseline is the value the cache holds now.
  std::vector<const cmake_cache_entry*> options;
  for (const auto& [name, e] : cache) {
    if (e.advanced || name.rfind("CMAKE_", 0) == 0 || name.find("_DIR") != std::string::npos) continue;
    if (!(e.type == "BOOL" || (e.type == "STRING" && e.strings.size() >= 2))) continue;
    if (looks_like_build_setting(name)) {
      d.guessed.push_back(fmt::format("left out {} (it looks like a build setting, not an optimization)", name));
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
      const bool on = e->value == "ON" || e->value == "1" || e->value == "TRUE" || e->value == "YES";
      if (on) t["levels"] = {"ON", "OFF"};  // the current value is the baseline
    } else {
      std::vector<std::string> levels{e->value};
      for (const auto& s : e->strings)
        if (s != e->value) levels.push_back(s);
      t["levels"] = levels;
    }
    if (const std::string title = one_line(e->help); !title.empty()) t["title"] = title;
    toggles.push_back(t);
  }
  d.manifest["toggles"] = toggles;
  d.guessed.push_back(fmt::format("{} toggle(s) from CMake options (their ids are listed above)", options.size()));

  // Benchmarks: executables that link Google Benchmark.
  json benchmarks = json::array(), targets = json::array();
  std::vector<std::string> other;
  for (const auto& t : read_codemodel(dir)) {
    if (t.type != "EXECUTABLE") continue;
    if (t.link_command.find("benchmark") != std::string::npos) {
      std::string name;
      for (char c : t.name) name += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
      if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) name = "b_" + name;
      name = name.substr(0, 32);
      benchmarks.push_back({{"name", name}, {"format", "gbench"}, {"command", {"{bin}/" + t.name, "--benchmark_format=json"}}});
      targets.push_back(t.name);
    } else if (t.name.find("bench") != std::string::npos || t.name.find("perf") != std::string::npos) {
      other.push_back(t.name);
    }
  }
  d.manifest["build"]["targets"] = targets;
  d.manifest["benchmarks"] = benchmarks;
  if (!benchmarks.empty())
    d.guessed.push_back(fmt::format("{} Google Benchmark program(s): {}", benchmarks.size(), fmt::join(targets, ", ")));
  if (!other.empty())
    d.to_do.push_back(fmt::format("not Google Benchmark, but named like benchmark programs: {} — add each under \"benchmarks\" "
                                  "with format \"json\" (one JSON object on stdout) or \"lines\" and a pattern",
                                  fmt::join(other, ", ")));
}

void probe_cargo(const fs::path& source, project_draft& d) {
  const std::string toml = read_text_file(source / "Cargo.toml");
  std::smatch mt;
  static const std::regex name_re(R"re(\[package\][^\[]*?\n\s*name\s*=\s*"([^"]+)")re");
  d.manifest["project"] = std::regex_search(toml, mt, name_re) ? mt[1].str() : source.filename().string();
  d.manifest["build"] = {{"system", "cargo"}, {"profile", "release"}, {"args", {"--offline"}}};
  d.guessed.push_back("--offline in build.args: remove it if the machine that measures reaches a crates registry");
  std::vector<std::string> taken;
  json toggles = json::array();
  const auto features = cargo_features(toml);
  for (const auto& f : features) toggles.push_back({{"id", toggle_id_for(f, "", taken)}, {"feature", f}});
  d.manifest["toggles"] = toggles;
  d.guessed.push_back(fmt::format("{} toggle(s) from Cargo features (their ids are listed above)", features.size()));
  // Programs: [[bin]] names and src/bin/*.rs.
  std::vector<std::string> bins;
  static const std::regex bin_re(R"re(\[\[bin\]\][^\[]*?name\s*=\s*"([^"]+)")re");
  for (std::sregex_iterator it(toml.begin(), toml.end(), bin_re), end; it != end; ++it) bins.push_back((*it)[1]);
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(source / "src/bin", ec))
    if (e.path().extension() == ".rs" && std::find(bins.begin(), bins.end(), e.path().stem().string()) == bins.end())
      bins.push_back(e.path().stem().string());
  json benchmarks = json::array();
  for (const auto& b : bins) {
    std::string name;
    for (char c : b) name += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
    if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) name = "b_" + name;
    benchmarks.push_back({{"name", name.substr(0, 32)}, {"format", "json"}, {"command", {"{bin}/" + b}}});
  }
  d.manifest["build"]["targets"] = bins;
  d.manifest["benchmarks"] = benchmarks;
  if (!bins.empty())
    d.to_do.push_back(fmt::format("check each benchmark's command and format ({}): \"json\" expects one JSON object with \"metrics\" "
                                  "on stdout; use \"lines\" with a pattern for printed timings", fmt::join(bins, ", ")));
  if (fs::exists(source / "benches"))
    d.to_do.push_back("`cargo bench` targets (benches/) are not built by `cargo build`: expose the measurement as a [[bin]] that "
                      "prints JSON, or run it through a command benchmark");
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

std::string toggle_id_for(const std::string& name, const std::string& prefix, std::vector<std::string>& taken) {
  const std::string base = name.rfind(prefix, 0) == 0 && name.size() > prefix.size() ? name.substr(prefix.size()) : name;
  std::vector<std::string> words{""};  // upper-case runs of letters and digits
  for (char c : base) {
    if (std::isalnum(static_cast<unsigned char>(c))) words.back() += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    else if (!words.back().empty()) words.emplace_back();
  }
  if (words.back().empty()) words.pop_back();
  if (words.empty()) words.push_back("T");
  if (!std::isupper(static_cast<unsigned char>(words.front()[0]))) words.front().insert(0, "T");
  const auto is_taken = [&](const std::string& id) { return std::find(taken.begin(), taken.end(), id) != taken.end(); };
  std::string id = fit_words(words, 16);
  // FOO_SUPPORT beside FOO: keep the filler word, shortened, before falling back to a number.
  if (is_taken(id)) id = fit_words(words, 16, false);
  for (int n = 2; is_taken(id); ++n) {
    const std::string suffix = fmt::format("_{}", n);
    id = fit_words(words, 16 - suffix.size()) + suffix;
  }
  taken.push_back(id);
  return id;
}

std::vector<std::string> cargo_features(const std::string& cargo_toml) {
  std::vector<std::string> out;
  std::istringstream in(cargo_toml);
  bool inside = false;
  static const std::regex key_re(R"re(^\s*"?([A-Za-z0-9_][A-Za-z0-9_+.-]*)"?\s*=)re");
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line[first] == '[') {
      inside = line.compare(first, 10, "[features]") == 0;
      continue;
    }
    std::smatch m;
    if (inside && std::regex_search(line, m, key_re) && m[1] != "default") out.push_back(m[1]);
  }
  return out;
}

project_draft probe_project(const fs::path& source, const fs::path& manifest_dir, const fs::path& probe_dir) {
  project_draft d;
  if (fs::exists(source / "CMakeLists.txt")) probe_cmake(source, probe_dir, d);
  else if (fs::exists(source / "Cargo.toml")) probe_cargo(source, d);
  else if (fs::exists(source / "Makefile") || fs::exists(source / "makefile") || fs::exists(source / "GNUmakefile")) probe_make(source, d);
  else
    throw user_error(exit_code::usage, fmt::format("{} has no CMakeLists.txt, Cargo.toml or Makefile — run `abtest init` in the "
                                                   "project's top folder, or write the manifest by hand (docs/manifest.md)",
                                                   source.string()));
  const fs::path rel = fs::relative(source, manifest_dir);
  d.manifest["source_dir"] = rel.empty() ? "." : rel.string();
  d.manifest["params"] = json::object();
  if (d.manifest["toggles"].empty())
    d.to_do.push_back("no toggles were found: add one per optimization (DESIGN §3.1: option, feature, var, env, patch, revert)");
  if (d.manifest["benchmarks"].empty()) d.to_do.push_back("no benchmark program was found: add at least one under \"benchmarks\"");
  // Keys in the order a reader expects.
  json ordered = json::object();
  for (const char* k : {"project", "source_dir", "build", "params", "toggles", "benchmarks"}) ordered[k] = d.manifest[k];
  d.manifest = std::move(ordered);
  return d;
}

}  // namespace abtest
