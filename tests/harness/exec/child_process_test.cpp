// Tests of child_process: the RAII handle reaps and kills its group, and perf events reach the child.
#include "harness/exec/child_process.hpp"

#include <linux/perf_event.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include <gtest/gtest.h>

namespace abtest::exec {
namespace {

const std::string child = ABTEST_EXEC_TEST_CHILD;

// Reads one line from `fd` (blocking).
std::string read_line(int fd) {
  std::string line;
  char c;
  while (::read(fd, &c, 1) == 1 && c != '\n') line += c;
  return line;
}

TEST(child_process, destructor_kills_and_reaps_the_whole_group) {
  ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  pid_t pid = -1, grandchild = -1;
  {
    spawn_options o;
    o.argv = {child, "fork-sleep", "30"};
    o.counters.clear();
    std::string error;
    auto c = child_process::start(o, error);
    ASSERT_TRUE(c.has_value()) << error;
    pid = c->pid();
    grandchild = std::stoi(read_line(c->stdout_pipe().get()));
    EXPECT_FALSE(c->exited());
  }
  // The child itself was reaped by the destructor: its pid is no longer ours to wait for.
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
  // The grandchild, re-parented to this subreaper, was SIGKILLed with the group.
  ASSERT_EQ(::waitpid(grandchild, &status, 0), grandchild);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

TEST(child_process, moved_handle_keeps_ownership) {
  spawn_options o;
  o.argv = {child, "exit", "7"};
  o.counters.clear();
  std::string error;
  auto c = child_process::start(o, error);
  ASSERT_TRUE(c.has_value()) << error;
  child_process moved = std::move(*c);
  const auto info = moved.reap();
  ASSERT_TRUE(WIFEXITED(info.status));
  EXPECT_EQ(WEXITSTATUS(info.status), 7);
  EXPECT_TRUE(moved.exited());
}

TEST(child_process, perf_events_count_the_exec_ed_program) {
  // A software event, available even where the hardware PMU is not (VMs, containers).
  spawn_options o;
  o.argv = {child, "spew", "1"};
  o.counters = {{"page_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS}};
  std::string error;
  auto c = child_process::start(o, error);
  ASSERT_TRUE(c.has_value()) << error;
  std::string out;
  char buf[65536];
  for (ssize_t n; (n = ::read(c->stdout_pipe().get(), buf, sizeof buf)) > 0;) out.append(buf, n);
  const auto info = c->reap();
  EXPECT_EQ(out.size(), 1u << 20);
  if (!c->counters().unavailable_reason().empty()) GTEST_SKIP() << c->counters().unavailable_reason();
  const auto counts = c->counters().read();
  ASSERT_TRUE(counts.contains("page_faults"));
  EXPECT_GT(counts.at("page_faults"), 10.0);  // any exec'ed program faults in dozens of pages
  EXPECT_GT(info.usage.ru_minflt, 0);
}

TEST(child_process, exec_failure_is_reported_not_started) {
  spawn_options o;
  o.argv = {"/nonexistent/program", "x"};
  std::string error;
  EXPECT_FALSE(child_process::start(o, error).has_value());
  EXPECT_NE(error.find("cannot execute /nonexistent/program"), std::string::npos) << error;
}

}  // namespace
}  // namespace abtest::exec
