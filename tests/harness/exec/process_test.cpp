// Tests of run_process: argv/env verbatim, timeouts that kill the whole group, crashes, bounded capture.
#include "harness/exec/process.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace abtest::exec {
namespace {

const std::string child = ABTEST_EXEC_TEST_CHILD;

process_options run_child(std::vector<std::string> args) {
  process_options o;
  o.argv = {child};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.hardware_counters = false;
  return o;
}

// Waits for `pid`, which must have been re-parented to this (subreaper) process, and returns its
// wait status; fails the test if it is still alive after `limit_s`.
int wait_reparented(pid_t pid, double limit_s) {
  for (int i = 0; i < limit_s * 100; ++i) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0) {
      ADD_FAILURE() << "pid " << pid << " is not our descendant: " << std::strerror(errno);
      return -1;
    }
    ::usleep(10'000);
  }
  ADD_FAILURE() << "pid " << pid << " still alive after " << limit_s << " s";
  ::kill(pid, SIGKILL);
  return -1;
}

TEST(run_process, argv_with_shell_metacharacters_arrives_verbatim) {
  const std::vector<std::string> args = {";|$(rm -rf x)", "`id`", "a b\tc", "*", "'\"", "", "$HOME", "x\ny"};
  std::vector<std::string> with_mode = {"args"};
  with_mode.insert(with_mode.end(), args.begin(), args.end());
  const auto r = run_process(run_child(with_mode));
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.exit_code, 0);
  std::string expected;
  for (const auto& a : args) expected += a + '\0';
  EXPECT_EQ(r.out.head, expected);
}

TEST(run_process, extra_environment_is_passed_and_overrides) {
  auto o = run_child({"env", "ABTEST_EXEC_PROBE"});
  o.env["ABTEST_EXEC_PROBE"] = "$(echo no); x=1";
  auto r = run_process(o);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.out.head, "$(echo no); x=1");

  ::setenv("ABTEST_EXEC_PROBE", "inherited", 1);
  r = run_process(run_child({"env", "ABTEST_EXEC_PROBE"}));
  EXPECT_EQ(r.out.head, "inherited");
  o.env["ABTEST_EXEC_PROBE"] = "override";
  r = run_process(o);
  EXPECT_EQ(r.out.head, "override");
  o.env["ABTEST_EXEC_PROBE"] = std::nullopt;  // an env toggle's null level: removed, not set empty
  r = run_process(o);
  EXPECT_EQ(r.out.head, "<unset>");
  o.env["ABTEST_EXEC_PROBE"] = "";
  r = run_process(o);
  EXPECT_EQ(r.out.head, "");
  ::unsetenv("ABTEST_EXEC_PROBE");
}

TEST(run_process, working_directory) {
  auto o = run_child({"cwd"});
  o.working_dir = std::filesystem::temp_directory_path();
  const auto r = run_process(o);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(std::filesystem::path(r.out.head), std::filesystem::canonical(o.working_dir));

  o.working_dir = "/nonexistent/abtest/dir";
  const auto bad = run_process(o);
  EXPECT_FALSE(bad.started);
  EXPECT_NE(bad.error.find("working directory"), std::string::npos) << bad.error;
}

TEST(run_process, path_lookup_only_without_slash) {
  process_options o;
  o.argv = {"true"};
  o.hardware_counters = false;
  auto r = run_process(o);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.exit_code, 0);

  o.argv = {"abtest-no-such-command-xyz"};
  r = run_process(o);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find("command not found"), std::string::npos) << r.error;

  o.argv = {"./abtest-no-such-command-xyz"};
  r = run_process(o);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find("cannot execute"), std::string::npos) << r.error;

  o.argv = {};
  EXPECT_FALSE(run_process(o).started);
}

TEST(run_process, exit_code_and_stderr) {
  auto r = run_process(run_child({"exit", "3"}));
  ASSERT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.signal.has_value());
  r = run_process(run_child({"eprint", "to stderr"}));
  EXPECT_EQ(r.err.head, "to stderr");
  EXPECT_EQ(r.err.tail, "to stderr");
  EXPECT_TRUE(r.out.head.empty());
}

TEST(run_process, crash_reports_the_signal) {
  auto r = run_process(run_child({"crash"}));
  ASSERT_TRUE(r.started);
  EXPECT_FALSE(r.exit_code.has_value());
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_FALSE(r.timed_out);
  r = run_process(run_child({"abort"}));
  EXPECT_EQ(r.signal, SIGABRT);
}

TEST(run_process, timeout_kills_the_whole_group_with_no_orphan) {
  // Become the reaper of orphaned descendants, so the grandchild's fate can be observed exactly.
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  auto o = run_child({"fork-sleep", "30"});
  o.timeout_s = 0.5;
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_process(o);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.started);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.signal, SIGTERM);
  EXPECT_LT(took, 20.0) << "run_process waited for the sleeper";
  const pid_t grandchild = std::stoi(r.out.head);
  ASSERT_GT(grandchild, 0);
  const int status = wait_reparented(grandchild, 10);
  EXPECT_TRUE(WIFSIGNALED(status)) << "grandchild was not killed";
}

TEST(run_process, sigterm_ignored_escalates_to_sigkill) {
  auto o = run_child({"ignore-term", "30"});
  o.timeout_s = 0.3;
  o.kill_grace_s = 0.2;
  const auto r = run_process(o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_EQ(r.out.head, "ready\n");
}

TEST(run_process, leftover_group_members_are_killed_when_the_child_exits) {
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  const auto r = run_process(run_child({"fork-linger", "30"}));
  ASSERT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_LT(r.usage.wall_s, 20.0);
  const pid_t grandchild = std::stoi(r.out.head);
  const int status = wait_reparented(grandchild, 10);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

TEST(run_process, huge_output_is_bounded_and_marked_truncated) {
  auto o = run_child({"spew", "100"});
  o.stdout_limit = 1u << 20;
  o.tail_limit = 4096;
  const auto r = run_process(o);
  ASSERT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.out.truncated);
  EXPECT_EQ(r.out.head.size(), 1u << 20);
  EXPECT_EQ(r.out.total_bytes, 100u << 20);
  EXPECT_EQ(r.out.tail.size(), 4096u);
  EXPECT_EQ(r.out.tail.back(), '\n');
  // The harness kept ~1 MiB of the 100 MiB: its own peak memory stays far below the output size.
  rusage self{};
  ::getrusage(RUSAGE_SELF, &self);
  EXPECT_LT(self.ru_maxrss / 1024, 64) << "harness peak RSS in MiB";
}

TEST(run_process, output_within_limit_is_not_truncated) {
  const auto r = run_process(run_child({"print", "hello"}));
  EXPECT_FALSE(r.out.truncated);
  EXPECT_EQ(r.out.head, "hello");
  EXPECT_EQ(r.out.total_bytes, 5u);
}

TEST(run_process, on_line_gets_each_line_as_it_comes_and_the_last_without_a_newline) {
  auto o = run_child({"print", "one\ntwo\n\nthree"});
  std::vector<std::string> lines;
  o.on_line = [&](std::string_view line) { lines.emplace_back(line); };
  const auto r = run_process(o);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "two", "", "three"}));
  EXPECT_EQ(r.out.head, "one\ntwo\n\nthree");  // captured as before

  o = run_child({"eprint", "to stderr\n"});
  lines.clear();
  o.on_line = [&](std::string_view line) { lines.emplace_back(line); };
  run_process(o);
  EXPECT_EQ(lines, (std::vector<std::string>{"to stderr"}));
}

TEST(run_process, on_line_keeps_lines_whole_across_reads_with_nothing_captured) {
  auto o = run_child({"spew", "4"});  // 4096 lines of 1023 bytes: many reads, lines split between them
  o.stdout_limit = o.stderr_limit = o.tail_limit = 0;
  std::size_t count = 0, whole = 0;
  o.on_line = [&](std::string_view line) {
    ++count;
    whole += line == std::string(1023, 'x');
  };
  const auto r = run_process(o);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(count, 4096u);
  EXPECT_EQ(whole, 4096u);
  EXPECT_TRUE(r.out.head.empty());
  EXPECT_EQ(r.out.total_bytes, 4096u * 1024);
}

TEST(run_process, rusage_is_recorded) {
  const auto r = run_process(run_child({"burn", "150"}));
  ASSERT_TRUE(r.started);
  EXPECT_GT(r.usage.wall_s, 0.1);
  EXPECT_GT(r.usage.user_s + r.usage.sys_s, 0.0);
  EXPECT_GT(r.usage.maxrss_mib, 0.0);
  EXPECT_GT(r.usage.minflt, 0.0);
  EXPECT_GT(r.started_at_unix, 1.6e9);
}

TEST(run_process, pin_confines_the_child) {
  auto o = run_child({"affinity"});
  o.pin = "0";
  auto r = run_process(o);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.out.head, "0");
  o.pin = "0-x";
  r = run_process(o);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find("CPU list"), std::string::npos) << r.error;
  o.pin = "1023";  // valid syntax, but no such CPU here
  r = run_process(o);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find("pin"), std::string::npos) << r.error;
}

TEST(run_process, hardware_counters_present_or_explained) {
  auto o = run_child({"burn", "50"});
  o.hardware_counters = true;
  const auto r = run_process(o);
  ASSERT_TRUE(r.started);
  if (r.counters.empty()) {
    EXPECT_FALSE(r.counters_unavailable.empty());
    GTEST_SKIP() << "no hardware counters here: " << r.counters_unavailable;
  }
  EXPECT_GT(r.counters.at("instructions"), 1e6);
}

}  // namespace
}  // namespace abtest::exec
