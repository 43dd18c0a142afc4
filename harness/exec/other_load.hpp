// How busy the CPUs are with work that is not abtest's own: the busy CPU time of an interval from
// /proc/stat, less the CPU time of abtest and its descendants. The 1-minute load average cannot
// tell a build that just ended (the harness's, a variant's) from work that still runs; this can.
//
//   const auto a = read_cpu_snapshot();  sleep(0.5 s);  const auto b = read_cpu_snapshot();
//   if (other_busy_cpus(a, b, ::getpid()) > 0.75) warn();
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>

namespace abtest::exec {

struct process_ticks {
  int ppid = 0;
  std::uint64_t ticks = 0;  // utime + stime, clock ticks
};

struct cpu_snapshot {
  double at_s = 0;                          // a monotonic clock, seconds
  std::uint64_t busy_ticks = 0;             // /proc/stat "cpu": all but idle and iowait, clock ticks
  std::map<int, process_ticks> processes;   // /proc/<pid>/stat, by pid
};

// Reads /proc under `root` (a fake tree in tests); `at_s` is now. nullopt when /proc/stat is
// unreadable.
std::optional<cpu_snapshot> read_cpu_snapshot(const std::filesystem::path& root = "/");

// The CPUs kept busy between `a` and `b` by processes other than `self` and its descendants (as
// `b` sees the tree), on average: Δbusy − Δ(self's tree), over the interval, ≥ 0. A process of
// the tree that started within the interval counts from zero; one that ended is not seen.
double other_busy_cpus(const cpu_snapshot& a, const cpu_snapshot& b, int self, double ticks_per_s);

// Two snapshots `interval_s` apart around this process: the CPUs that other work keeps busy now.
// nullopt when /proc is unreadable.
std::optional<double> measure_other_busy_cpus(double interval_s = 0.5, const std::filesystem::path& root = "/");

}  // namespace abtest::exec
