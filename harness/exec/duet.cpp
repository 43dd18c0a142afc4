// Two benchmark invocations at once, each on its own core.
#include "harness/exec/duet.hpp"

#include <sched.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <latch>
#include <stdexcept>
#include <thread>
#include <vector>

#include "harness/exec/cpu_list.hpp"

namespace abtest::exec {

duet_cores choose_duet_cores(const std::string& pin) {
  std::vector<int> cpus;
  if (!pin.empty()) {
    const cpu_list_result parsed = parse_cpu_list(pin);
    if (!parsed.error.empty()) throw std::invalid_argument("error: --pin " + pin + ": " + parsed.error);
    cpus = parsed.cpus;
  } else {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  if (cpus.size() < 2) {
    throw std::invalid_argument(fmt::format(
        "error: --duet runs the two arms at once on two cores, and {} — give two CPUs with --pin (e.g. --pin 2,3) "
        "or run without --duet",
        pin.empty() ? fmt::format("this process may use {} CPU", cpus.size())
                    : fmt::format("--pin {} names {} CPU", pin, cpus.size())));
  }
  return {cpus[cpus.size() - 2], cpus[cpus.size() - 1]};
}

namespace {

// cpuN → (idle + iowait, total) jiffies from /proc/stat.
std::map<int, std::pair<double, double>> read_cpu_times(const std::filesystem::path& root) {
  std::map<int, std::pair<double, double>> out;
  std::ifstream in(root / "proc/stat");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("cpu", 0) != 0 || line.size() < 4 || !std::isdigit(static_cast<unsigned char>(line[3]))) continue;
    std::istringstream fields(line.substr(3));
    int cpu = 0;
    fields >> cpu;
    double value = 0, idle = 0, total = 0;
    for (int i = 0; fields >> value; ++i) {
      total += value;
      if (i == 3 || i == 4) idle += value;  // idle, iowait
    }
    out[cpu] = {idle, total};
  }
  return out;
}

}  // namespace

std::map<int, double> cpu_busy_fractions(std::chrono::milliseconds window, const std::filesystem::path& root) {
  const auto before = read_cpu_times(root);
  std::this_thread::sleep_for(window);
  const auto after = read_cpu_times(root);
  std::map<int, double> out;
  for (const auto& [cpu, t] : after) {
    const auto b = before.find(cpu);
    if (b == before.end()) continue;
    const double total = t.second - b->second.second, idle = t.first - b->second.first;
    out[cpu] = total > 0 ? std::clamp(1.0 - idle / total, 0.0, 1.0) : 0.0;
  }
  return out;
}

std::string duet_cores_busy(const duet_cores& cores, double max_busy) {
  const auto busy = cpu_busy_fractions(std::chrono::milliseconds(1000));
  std::vector<std::string> taken;
  for (const int cpu : {cores.first, cores.second})
    if (const auto it = busy.find(cpu); it != busy.end() && it->second > max_busy)
      taken.push_back(fmt::format("CPU {} was {:.0f}% busy", cpu, 100 * it->second));
  if (taken.empty()) return {};
  return fmt::format("--duet needs its two cores free of other work, and over the last second {} — stop the other "
                     "work, give --pin two idle CPUs, or run without --duet",
                     fmt::join(taken, ", "));
}

duet_pair run_duet(benchmark_invocation a, benchmark_invocation b, const duet_cores& cores, int round) {
  duet_pair p;
  const bool swap = round % 2 != 0;
  p.cpu_a = swap ? cores.second : cores.first;
  p.cpu_b = swap ? cores.first : cores.second;
  a.pin = std::to_string(p.cpu_a);
  b.pin = std::to_string(p.cpu_b);
  // Both wait at the latch, so neither invocation gets a head start from the thread's creation.
  std::latch go(2);
  std::thread second([&] {
    go.arrive_and_wait();
    p.b = run_benchmark(b);
  });
  go.arrive_and_wait();
  p.a = run_benchmark(a);
  second.join();
  const auto seconds = [](std::chrono::system_clock::time_point t) {
    return std::chrono::duration<double>(t.time_since_epoch()).count();
  };
  const double start = std::max(seconds(p.a.started_at), seconds(p.b.started_at));
  const double end = std::min(seconds(p.a.started_at) + p.a.duration_s.value_or(0.0),
                              seconds(p.b.started_at) + p.b.duration_s.value_or(0.0));
  p.overlap_s = std::max(0.0, end - start);
  return p;
}

std::string multithreaded_reason(const sample& s, const std::string& bench, double slack) {
  const auto value = [&](const char* name) {
    const auto it = s.metrics.find(bench + "." + name);
    return it == s.metrics.end() ? -1.0 : it->second;
  };
  if (const double threads = value("threads"); threads > 1)
    return fmt::format("{} ran {:.0f} threads at once, so --duet would compare it with its own partner's load — run "
                       "it without --duet, or limit it to one thread",
                       bench, threads);
  const double wall = value("wall_s"), user = value("user_s"), sys = value("sys_s");
  if (wall <= 0 || user < 0 || sys < 0) return {};
  if (user + sys <= slack * wall) return {};
  return fmt::format("{} used {:.2f} s of CPU in {:.2f} s: more than one core, so --duet would compare it with its "
                     "own partner's load — run it without --duet, or limit it to one thread",
                     bench, user + sys, wall);
}

}  // namespace abtest::exec
