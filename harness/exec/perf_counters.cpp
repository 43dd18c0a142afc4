// perf_event_open wrapper for the executor's hardware counters (man 2 perf_event_open).
#include "harness/exec/perf_counters.hpp"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

namespace abtest::exec {

namespace {
int open_counter(pid_t pid, const perf_event_spec& spec) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = spec.type;
  attr.config = spec.config;
  attr.disabled = 1;
  attr.enable_on_exec = 1;
  attr.inherit = 1;
  // User space only: allowed at perf_event_paranoid ≤ 2 without privileges, and the benchmark's
  // own work is what a toggle changes.
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return static_cast<int>(::syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}
}  // namespace

std::span<const perf_event_spec> hardware_events() {
  static const perf_event_spec events[] = {
      {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
      {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
      {"cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
  };
  return events;
}

bool perf_counters::attach(pid_t pid, std::span<const perf_event_spec> events) {
  counters_.clear();
  reason_.clear();
  int first_errno = 0;
  for (const auto& spec : events) {
    const int fd = open_counter(pid, spec);
    if (fd >= 0) {
      counters_.push_back({spec.name, unique_fd(fd)});
    } else if (first_errno == 0) {
      first_errno = errno;
    }
  }
  if (counters_.empty()) {
    reason_ = fmt::format("perf_event_open: {} (check kernel.perf_event_paranoid, or the container's "
                          "seccomp profile)", std::strerror(first_errno));
    return false;
  }
  return true;
}

std::map<std::string, double> perf_counters::read() const {
  std::map<std::string, double> values;
  for (const auto& c : counters_) {
    std::uint64_t buf[3] = {0, 0, 0};  // value, time_enabled, time_running
    if (::read(c.fd.get(), buf, sizeof buf) != static_cast<ssize_t>(sizeof buf)) continue;
    if (buf[2] == 0) continue;
    double value = static_cast<double>(buf[0]);
    if (buf[2] < buf[1]) value *= static_cast<double>(buf[1]) / static_cast<double>(buf[2]);
    values.emplace(c.name, value);
  }
  return values;
}

}  // namespace abtest::exec
