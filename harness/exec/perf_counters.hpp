// Hardware counters (instructions, cycles, cache misses) of a child process via perf_event_open.
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "harness/exec/unique_fd.hpp"

namespace abtest::exec {

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
  // Opens every counter it can for `pid`; returns false (see unavailable_reason) when none opened.
  bool attach(pid_t pid);
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
