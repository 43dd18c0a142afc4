// Duet benchmarking (Bulej et al., "Duet benchmarking: improving measurement accuracy in the
// cloud", EMSE 2020): the two arms of a comparison run at the same time, each pinned to a core of
// its own, so that what disturbs the machine — another tenant, a frequency change, a noisy
// neighbour — disturbs both, and the paired ratio of the round cancels it. The cores swap every
// round, so a faster core favours neither arm. Valid for single-threaded benchmarks only: a program
// that spreads over several cores competes with its partner instead of sharing its disturbances.
//
//   const duet_cores cores = choose_duet_cores(pin);           // throws when fewer than 2 CPUs
//   const duet_pair p = run_duet(variant, baseline, cores, round);
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <string>

#include "harness/exec/executor.hpp"
#include "harness/sample/sample.hpp"

namespace abtest::exec {

struct duet_cores {
  int first = 0, second = 1;
};

// Two CPUs for a duet: from `pin` (a cpulist, e.g. "2,3") when given, else the last two CPUs this
// process may run on (CPU 0 usually takes the most interrupts). Throws std::invalid_argument with
// what to do when fewer than two are available.
duet_cores choose_duet_cores(const std::string& pin = {});

// How busy each CPU was over `window`: 1 − idle share, from two readings of /proc/stat (every
// CPU's line, `root` for tests). Empty when /proc/stat cannot be read.
std::map<int, double> cpu_busy_fractions(std::chrono::milliseconds window, const std::filesystem::path& root = "/");

// A duet needs its two cores to itself: another job on one of them slows that arm alone (on this
// 2-core host a compile job made every pinned run of the planted benchmark 4 ms ticks longer, by
// turns). Returns why the cores are not free — each one busier than `max_busy` over a second —
// or empty when they are (or cannot be read).
std::string duet_cores_busy(const duet_cores& cores, double max_busy = 0.3);

struct duet_pair {
  sample a, b;
  int cpu_a = 0, cpu_b = 0;  // where each ran this round
  double overlap_s = 0;      // how long both were running: the part of the duet that is one
};

// Starts `a` and `b` together, `a` on cores.first and `b` on cores.second in even rounds and the
// other way round in odd ones; waits for both. Each invocation's own `pin` is replaced.
duet_pair run_duet(benchmark_invocation a, benchmark_invocation b, const duet_cores& cores, int round);

// A sample that ran more than one thread (`<bench>.threads`, from watch_threads) or whose CPU time
// exceeds its wall time by more than `slack` used more than one core: a duet cannot compare it
// fairly. Returns the reason, empty when the sample looks single-threaded (or has no process
// metrics to tell).
std::string multithreaded_reason(const sample& s, const std::string& bench, double slack = 1.15);

}  // namespace abtest::exec
