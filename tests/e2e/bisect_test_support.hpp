// Shared by the bisection end-to-end tests: run the real abtest binary, and a trimmed copy of the
// planted fixture (planted-bench only) whose build folders persist between test runs.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace abtest::e2e {

namespace fs = std::filesystem;

struct cli_result {
  int code = -1;  // exit status; -1 when killed by a signal
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A fresh folder under the temp dir, removed with the object.
class scratch {
 public:
  explicit scratch(const std::string& tag) {
    path_ = fs::temp_directory_path() / ("abtest-" + tag + "-" + std::to_string(::getpid()) + "-" +
                                         std::to_string(std::random_device{}()));
    fs::create_directories(path_);
  }
  ~scratch() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Runs `program args…` (never through a shell) in `cwd`, stdout and stderr into files.
inline cli_result run_program(const std::string& program, const std::vector<std::string>& args, const fs::path& cwd = {}) {
  static int counter = 0;
  const fs::path io = fs::temp_directory_path() / ("abtest-e2e-io-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    if (!std::freopen((io.string() + ".out").c_str(), "w", stdout) || !std::freopen((io.string() + ".err").c_str(), "w", stderr))
      ::_exit(126);
    std::vector<std::string> all{program};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  cli_result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(io.string() + ".out");
  r.err = slurp(io.string() + ".err");
  fs::remove(io.string() + ".out");
  fs::remove(io.string() + ".err");
  return r;
}

inline cli_result run_abtest(const std::vector<std::string>& args, const fs::path& cwd = {}) {
  return run_program(ABTEST_BIN, args, cwd);
}

// `git -C repo ARGS…`, which must succeed; the first line of its output.
inline std::string git(const fs::path& repo, std::vector<std::string> args) {
  args.insert(args.begin(), {"-C", repo.string()});
  const auto r = run_program("git", args);
  EXPECT_EQ(r.code, 0) << "git " << args[2] << ": " << r.err;
  return r.out.substr(0, r.out.find('\n'));
}

// Fixed identities and dates for the commits a test makes, so a generated repository has the same
// shas on every run (and its build folders under .abtest stay valid between runs).
inline void fixed_git_identity() {
  for (const auto& [k, v] : {std::pair{"GIT_AUTHOR_NAME", "abtest"}, {"GIT_AUTHOR_EMAIL", "abtest@example.org"},
                             {"GIT_COMMITTER_NAME", "abtest"}, {"GIT_COMMITTER_EMAIL", "abtest@example.org"},
                             {"GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z"}, {"GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z"}})
    ::setenv(k, v, 1);
}

inline nlohmann::json json_of(const cli_result& r) {
  try {
    return nlohmann::json::parse(r.out);
  } catch (const std::exception&) {
    ADD_FAILURE() << "stdout is not JSON:\n" << r.out << "\nstderr:\n" << r.err;
    return nlohmann::json::object();
  }
}

// Fixture builds go through ccache when the parent build does (cmake reads the variable from the
// environment of the configure that abtest runs).
inline void use_parent_launcher() {
  if (const std::string launcher = ABTEST_CXX_COMPILER_LAUNCHER; !launcher.empty())
    ::setenv("CMAKE_CXX_COMPILER_LAUNCHER", launcher.c_str(), 1);
}

inline void write_if_changed(const fs::path& to, const std::string& text) {
  if (fs::exists(to) && slurp(to) == text) return;  // keep the mtime: builds stay incremental
  fs::create_directories(to.parent_path());
  std::ofstream(to, std::ios::binary | std::ios::trunc) << text;
}

// The planted fixture copied into `dest`, with a manifest that builds and runs planted-bench only
// (the effects are all in it; the other programs only cost build time).
inline fs::path planted_copy(const fs::path& dest) {
  const fs::path src = fs::path(ABTEST_SOURCE_DIR) / "tests" / "fixtures" / "planted";
  for (const char* file : {"CMakeLists.txt", "planted_config.hpp.in"}) write_if_changed(dest / file, slurp(src / file));
  for (const auto& e : fs::directory_iterator(src / "src")) write_if_changed(dest / "src" / e.path().filename(), slurp(e.path()));
  auto m = nlohmann::json::parse(slurp(src / "abtest.json"));
  m["build"]["targets"] = {"planted-bench"};
  nlohmann::json benches = nlohmann::json::array();
  for (const auto& b : m["benchmarks"])
    if (b["name"] == "planted") benches.push_back(b);
  m["benchmarks"] = benches;
  m.erase("reference");
  write_if_changed(dest / "abtest.json", m.dump(2) + "\n");
  return dest / "abtest.json";
}

// Plants a slow-down in a planted_copy at `dir`: the work of each repetition, 100% in the fixture,
// set to `percent` (200: twice the work). ADD_FAILURE when the fixture's source no longer has it.
inline void set_work_percent(const fs::path& dir, int percent) {
  std::string work = slurp(dir / "src" / "work.cpp");
  const std::string from = "std::uint64_t percent = 100;";
  const auto at = work.find(from);
  if (at == std::string::npos) {
    ADD_FAILURE() << "the fixture's work.cpp changed: update set_work_percent";
    return;
  }
  work.replace(at, from.size(), "std::uint64_t percent = " + std::to_string(percent) + ";");
  std::ofstream(dir / "src" / "work.cpp", std::ios::trunc) << work;
}

// Flips the default of the fixture's option `name` (e.g. PLANTED_SLOW) in a planted_copy at `dir`
// to `value`: `option(PLANTED_SLOW "…" OFF)` becomes `… ON)`, the way a change switches an
// optimization on for everyone. ADD_FAILURE when the CMakeLists.txt has no such option.
inline void set_option_default(const fs::path& dir, const std::string& name, const std::string& value) {
  std::string text = slurp(dir / "CMakeLists.txt");
  const auto at = text.find("option(" + name + " ");
  const auto end = at == std::string::npos ? at : text.find(')', at);
  const auto space = end == std::string::npos ? end : text.rfind(' ', end);
  if (space == std::string::npos || space < at) {
    ADD_FAILURE() << "the fixture's CMakeLists.txt has no option(" << name << " …): update set_option_default";
    return;
  }
  text.replace(space + 1, end - space - 1, value);
  std::ofstream(dir / "CMakeLists.txt", std::ios::trunc) << text;
}

// Culprits of a bisect --json answer as sets of toggle names.
inline std::set<std::vector<std::string>> culprit_sets(const nlohmann::json& j) {
  std::set<std::vector<std::string>> out;
  for (const auto& c : j.at("culprits")) out.insert(c.at("toggles").get<std::vector<std::string>>());
  return out;
}

}  // namespace abtest::e2e
