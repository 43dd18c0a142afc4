// Duet runs (design §6): two invocations at once, each pinned to its own core, swapped every round;
// multi-threaded samples and hosts with fewer than two CPUs refused with what to do.
#include "harness/exec/duet.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <cstdlib>
#include <chrono>

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace abtest::exec {
namespace {

benchmark_invocation child(std::vector<std::string> args) {
  benchmark_invocation inv;
  inv.bench = "child";
  inv.format = "lines";
  inv.options = {{"pattern", "(cpu) ([0-9]+)"}};
  inv.hardware_counters = false;
  inv.timeout_s = 30;
  inv.argv = {ABTEST_EXEC_TEST_CHILD};
  inv.argv.insert(inv.argv.end(), args.begin(), args.end());
  return inv;
}

TEST(duet, the_two_arms_run_at_once_each_on_its_core_and_swap_every_round) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one CPU: no duet possible";
  const duet_cores cores = choose_duet_cores();
  ASSERT_NE(cores.first, cores.second);
  for (int round = 0; round < 2; ++round) {
    const duet_pair p = run_duet(child({"burn-cpu", "400"}), child({"burn-cpu", "400"}), cores, round);
    ASSERT_EQ(p.a.status, sample_status::ok) << p.a.error;
    ASSERT_EQ(p.b.status, sample_status::ok) << p.b.error;
    EXPECT_EQ(p.cpu_a, round == 0 ? cores.first : cores.second);
    EXPECT_EQ(p.cpu_b, round == 0 ? cores.second : cores.first);
    // Each child reports the CPU it ran on: the one it was pinned to.
    EXPECT_EQ(p.a.metrics.at("child.cpu"), p.cpu_a) << "round " << round;
    EXPECT_EQ(p.b.metrics.at("child.cpu"), p.cpu_b) << "round " << round;
    // Both burn 400 ms of wall time: started together, they overlap for most of it.
    EXPECT_GT(p.overlap_s, 0.2) << "round " << round;
  }
}

TEST(duet, cores_come_from_the_pin_list_and_one_cpu_is_refused) {
  const duet_cores c = choose_duet_cores("0,3,5");
  EXPECT_EQ(c.first, 3);
  EXPECT_EQ(c.second, 5);
  try {
    choose_duet_cores("1");
    ADD_FAILURE() << "one CPU accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("two cores"), std::string::npos) << e.what();
  }
  EXPECT_THROW(choose_duet_cores("3-1"), std::invalid_argument);
}

TEST(duet, a_sample_that_used_more_than_one_core_is_named) {
  // One thread cannot use more CPU than wall time, whatever the load: a real single-threaded run passes.
  const sample one = run_benchmark(child({"burn-cpu", "200"}));
  ASSERT_EQ(one.status, sample_status::ok) << one.error;
  EXPECT_EQ(multithreaded_reason(one, "child"), "");
  // The rule on the process metrics: CPU over wall beyond the slack.
  sample four;
  four.metrics = {{"b.wall_s", 1.0}, {"b.user_s", 3.2}, {"b.sys_s", 0.3}};
  const std::string why = multithreaded_reason(four, "b");
  EXPECT_NE(why.find("more than one core"), std::string::npos) << why;
  EXPECT_NE(why.find("3.50 s of CPU in 1.00 s"), std::string::npos) << why;
  sample near_one;
  near_one.metrics = {{"b.wall_s", 1.0}, {"b.user_s", 1.05}, {"b.sys_s", 0.05}};
  EXPECT_EQ(multithreaded_reason(near_one, "b"), "") << "within the 15% slack (a helper thread's start-up)";
  EXPECT_EQ(multithreaded_reason(sample{}, "b"), "") << "no metrics: nothing to tell";
}

}  // namespace
}  // namespace abtest::exec

namespace abtest::exec {
namespace {

TEST(duet_free_cores, a_core_kept_busy_reads_busy) {
  const duet_cores cores = [] {
    try {
      return choose_duet_cores();
    } catch (const std::invalid_argument&) {
      return duet_cores{0, 0};
    }
  }();
  if (cores.first == cores.second) GTEST_SKIP() << "one CPU: no duet possible";
  // A thread pinned to the second core spins through the whole window.
  std::atomic<bool> stop{false};
  std::thread spin([&] {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cores.second, &set);
    sched_setaffinity(0, sizeof set, &set);
    unsigned long x = 0;
    while (!stop.load(std::memory_order_relaxed)) x = x * 3 + 1;
    if (x == 42) std::abort();  // keeps the loop's work observable
  });
  const auto busy = cpu_busy_fractions(std::chrono::milliseconds(400));
  const std::string why = duet_cores_busy(cores);
  stop = true;
  spin.join();
  ASSERT_TRUE(busy.count(cores.second)) << "no /proc/stat line for CPU " << cores.second;
  EXPECT_GT(busy.at(cores.second), 0.8);
  EXPECT_NE(why.find(fmt::format("CPU {} was", cores.second)), std::string::npos) << why;
  EXPECT_NE(why.find("without --duet"), std::string::npos) << why;
}

TEST(duet_free_cores, an_unreadable_proc_stat_reads_as_nothing_known) {
  EXPECT_TRUE(cpu_busy_fractions(std::chrono::milliseconds(1), "/nonexistent").empty());
}

}  // namespace
}  // namespace abtest::exec
