// Hardware counters (instructions, cycles, cache misses) of a child process via perf_event_open.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "harness/exec/unique_fd.hpp"

namespace abtest::exec {

// One perf event: `type` and `config` as in perf_event_attr (PERF_TYPE_HARDWARE /
// PERF_COUNT_HW_INSTRUCTIONS, ...), and the metric name it is reported under.
struct perf_event_spec {
  std::string name;
  std::uint32_t type = 0;
  std::uint64_t config = 0;
};

// instructions, cycles and cache_misses: the counters the executor records (design §4).
std::span<const perf_event_spec> hardware_events();

// Counts user-space events of one process and the children it forks (inherit), from its next
// execve (enable_on_exec) until it exits. Opening needs the same permissions as `perf stat -p`:
// hosts with kernel.perf_event_paranoid > 2, containers whose seccomp profile blocks the call,
// or VMs without a virtual PMU have none, and then the counters are simply absent.
//
//   perf_counters counters;
//   counters.attach(child_pid);   // before the child execs
//   ... wait for the child ...
//   auto values = counters.read();  // {"instructions": 1.2e9, "cycles": ..., "cache_misses": ...}
class perf_counters {
 public:
  // Opens every event it can for `pid`; returns false (see unavailable_reason) when none opened.
  bool attach(pid_t pid, std::span<const perf_event_spec> events = hardware_events());
  // Counter name → count, scaled by enabled/running time when the kernel multiplexed it. A counter
  // that never ran is left out rather than reported as zero.
  std::map<std::string, double> read() const;
  // Why no counter could be opened (errno text), empty when at least one is open.
  const std::string& unavailable_reason() const { return reason_; }

 private:
  struct counter {
    std::string name;
    unique_fd fd;
  };
  std::vector<counter> counters_;
  std::string reason_;
};

}  // namespace abtest::exec
