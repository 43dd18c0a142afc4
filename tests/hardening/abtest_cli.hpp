// Runs the real `abtest` binary as a child process for the end-to-end and hardening tests.
//
//   const auto r = abtest::test::run_cli({"--db", db, "run", "--simulate", s, "--toggle", "A4"});
//   EXPECT_EQ(r.exit_code, 0) << r.err;
//   const auto j = nlohmann::json::parse(r.out);
//
// Every child writes stdout and stderr to files in a private folder (outputs can be large), and is
// run through posix_spawn — never a shell — so arguments arrive byte for byte.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

extern char** environ;

namespace abtest::test {
namespace fs = std::filesystem;

// The abtest binary under test (passed by CMake as $<TARGET_FILE:abtest>).
inline const fs::path abtest_binary = ABTEST_BINARY;

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A fresh folder under the system temp dir, removed when the object dies.
class temp_dir {
 public:
  explicit temp_dir(const std::string& tag) {
    std::random_device rd;
    path_ = fs::temp_directory_path() / ("abtest-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    fs::create_directories(path_);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

struct cli_result {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  std::string out, err;
};

// A started abtest process; its output goes to files beside each other in `io_dir`.
struct cli_child {
  pid_t pid = -1;
  fs::path out_path, err_path;
};

inline cli_child spawn_cli(const std::vector<std::string>& args, const fs::path& io_dir, const fs::path& cwd = {}) {
  static int counter = 0;
  const std::string stem = "cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  cli_child c{-1, io_dir / (stem + ".out"), io_dir / (stem + ".err")};
  std::vector<std::string> argv_s{abtest_binary.string()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, c.out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, c.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  const int rc = posix_spawn(&c.pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("error: cannot start " + abtest_binary.string() + " — build the abtest target first");
  return c;
}

inline cli_result wait_cli(const cli_child& c) {
  int status = 0;
  while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
  }
  cli_result r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = read_text(c.out_path);
  r.err = read_text(c.err_path);
  std::error_code ec;
  fs::remove(c.out_path, ec);
  fs::remove(c.err_path, ec);
  return r;
}

// Runs abtest to completion with `args`; stdout/stderr captured in full.
inline cli_result run_cli(const std::vector<std::string>& args, const fs::path& cwd = {}) {
  return wait_cli(spawn_cli(args, fs::temp_directory_path(), cwd));
}

// Parses stdout as JSON; an empty object (and a failed expectation upstream) when it is not JSON.
inline nlohmann::json json_of(const cli_result& r) {
  try {
    return nlohmann::json::parse(r.out);
  } catch (const nlohmann::json::exception&) {
    return nlohmann::json::object();
  }
}

// One integer from `abtest query` (e.g. a row count); -1 when the query failed.
inline std::int64_t query_int(const fs::path& db, const std::string& sql) {
  const auto r = run_cli({"--db", db.string(), "query", "--format", "json", sql});
  if (r.exit_code != 0) return -1;
  const auto j = json_of(r);
  if (!j.is_array() || j.empty() || !j[0].is_object() || j[0].empty()) return -1;
  const auto& v = j[0].begin().value();
  return v.is_number_integer() ? v.get<std::int64_t>() : -1;
}

// `abtest db check` on `db`: true when PRAGMA integrity_check and the foreign keys pass.
inline bool db_check_passes(const fs::path& db, std::string* why = nullptr) {
  const auto r = run_cli({"--db", db.string(), "db", "check"});
  if (why) *why = r.out + r.err;
  return r.exit_code == 0;
}

inline void sleep_us(std::int64_t us) { std::this_thread::sleep_for(std::chrono::microseconds(us)); }

}  // namespace abtest::test
