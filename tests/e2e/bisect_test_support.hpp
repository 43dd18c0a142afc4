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

// Culprits of a bisect --json answer as sets of toggle names.
inline std::set<std::vector<std::string>> culprit_sets(const nlohmann::json& j) {
  std::set<std::vector<std::string>> out;
  for (const auto& c : j.at("culprits")) out.insert(c.at("toggles").get<std::vector<std::string>>());
  return out;
}

}  // namespace abtest::e2e
