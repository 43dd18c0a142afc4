// other_load: the CPU time of abtest's own process tree is discounted from the busy time of an
// interval, other work's is not; snapshots read from a fake /proc; the noise warning follows.
#include "harness/exec/other_load.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "harness/exec/host.hpp"
#include "harness/exec/proc_text.hpp"

namespace abtest::exec {
namespace {
namespace fs = std::filesystem;

cpu_snapshot snapshot(double at_s, std::uint64_t busy, std::map<int, process_ticks> processes) {
  return {at_s, busy, std::move(processes)};
}

// pid 100 is abtest; 101 its build tool, 102 a compiler under it; 200 someone else's job.
// /proc/<pid>/stat opened while the process lived and read after it was reaped: read(2) fails with
// ESRCH, which std::ifstream turned into an exception that ended a run ("basic_filebuf::underflow
// error reading the file: No such process", exit 70, seen in the kill-point test). Now it is an
// answer: nothing to read.
TEST(proc_text, a_process_gone_between_open_and_read_is_an_answer_not_an_exception) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  const std::string path = "/proc/" + std::to_string(child) + "/stat";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_EQ(read_to_end(fd), std::nullopt);
  EXPECT_EQ(read_proc_text(path), std::nullopt) << "and a path that is gone cannot be opened";
  const auto self = read_proc_text("/proc/self/stat");
  ASSERT_TRUE(self.has_value());
  EXPECT_EQ(self->rfind(std::to_string(::getpid()) + " (", 0), 0u) << *self;
}

TEST(other_load, abtests_own_tree_is_discounted) {
  const auto a = snapshot(10.0, 1000, {{1, {0, 5}}, {100, {1, 10}}, {101, {100, 40}}, {200, {1, 0}}});
  // One second at 100 ticks/s: 150 busy ticks, 120 of them the build's (101 +60, 102 new +60).
  const auto b = snapshot(11.0, 1150, {{1, {0, 5}}, {100, {1, 10}}, {101, {100, 100}}, {102, {101, 60}}, {200, {1, 30}}});
  EXPECT_NEAR(other_busy_cpus(a, b, 100, 100.0), 0.3, 1e-9);
  // Seen from another process, all of it is other work.
  EXPECT_NEAR(other_busy_cpus(a, b, 200, 100.0), 1.2, 1e-9);
}

TEST(other_load, a_quiet_interval_after_a_build_reads_zero) {
  // The build ended before the interval: nothing of the tree ran and nothing else did.
  const auto a = snapshot(0.0, 5000, {{100, {1, 10}}});
  const auto b = snapshot(0.5, 5001, {{100, {1, 11}}});
  EXPECT_NEAR(other_busy_cpus(a, b, 100, 100.0), 0.0, 1e-9);
}

TEST(other_load, degenerate_intervals_read_zero) {
  const auto a = snapshot(1.0, 100, {});
  EXPECT_EQ(other_busy_cpus(a, a, 1, 100.0), 0.0);
  EXPECT_EQ(other_busy_cpus(a, snapshot(2.0, 50, {}), 1, 100.0), 0.0);  // a counter that went back
}

TEST(other_load, snapshots_read_a_fake_proc) {
  const fs::path root = fs::temp_directory_path() / ("abtest_other_load_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "proc/42");
  fs::create_directories(root / "proc/self_not_a_pid");
  std::ofstream(root / "proc/stat") << "cpu  100 5 20 900 7 1 2 3 0 0\ncpu0 50 2 10 450 3 0 1 1 0 0\n";
  // A comm with a space and a parenthesis: the fields are counted after the last ')'.
  std::ofstream(root / "proc/42/stat") << "42 (cc1plus (x) y) R 41 42 42 0 -1 4194304 100 0 0 0 250 30 0 0 20 0 1 0 77 0 0\n";
  const auto s = read_cpu_snapshot(root);
  fs::remove_all(root);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->busy_ticks, 100u + 5 + 20 + 1 + 2 + 3);
  ASSERT_EQ(s->processes.size(), 1u);
  EXPECT_EQ(s->processes.at(42).ppid, 41);
  EXPECT_EQ(s->processes.at(42).ticks, 280u);
}

TEST(other_load, the_warning_follows_other_work_not_the_load_average) {
  noise_inputs in;
  in.cores = 2;
  in.policy.governor = "performance";
  in.load = load_average{3.0, 1.5, 0.6};  // what the harness's own build leaves behind
  in.other_busy = 0.1;
  EXPECT_TRUE(noise_warnings(in).empty());
  in.other_busy = 1.4;  // something else runs
  const auto w = noise_warnings(in);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("other processes keep 1.4 of 2 CPUs busy"), std::string::npos) << w[0];
  in.other_busy.reset();  // /proc unreadable: the load average decides, as before
  EXPECT_EQ(noise_warnings(in).size(), 1u);
}

}  // namespace
}  // namespace abtest::exec
