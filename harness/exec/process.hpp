// Runs one command to completion: timeout on the whole process group, bounded output capture,
// its output line by line as it comes, rusage and hardware counters.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/exec/env_changes.hpp"

namespace abtest::exec {

struct process_options {
  std::vector<std::string> argv;               // execve-style; argv[0] looked up in PATH if it has no '/'
  std::filesystem::path working_dir;           // empty: the harness's current directory
  env_changes env;                             // set in, or removed from, the inherited environment
  std::string pin;                             // CPU list for sched_setaffinity, "0,2-3"; empty: none
  double timeout_s = 0.0;                      // 0: no limit
  double kill_grace_s = 2.0;                   // SIGTERM → this long → SIGKILL, to the whole group
  std::size_t stdout_limit = 64u << 20;        // keep the first this-many bytes of stdout
  std::size_t stderr_limit = 1u << 20;         // keep the first this-many bytes of stderr
  std::size_t tail_limit = 8u << 10;           // and the last this-many bytes of each stream
  bool hardware_counters = true;               // perf_event_open on the child when permitted
  // Reads the child's thread count from /proc every 10 ms while it runs (resource_usage::
  // max_threads): how a duet tells a benchmark that runs several threads, which CPU time alone
  // cannot when the threads share a busy core. Threads that live under 10 ms may be missed.
  bool watch_threads = false;
  // Called with each line of stdout and stderr, without its newline, while the command runs: the
  // lines of both streams in the order they arrive, each line whole (a last line without a newline
  // comes when the stream ends; one longer than line_limit comes in pieces of that size). Lines
  // reach it whatever the capture limits: set them to 0 when the callback keeps what it needs.
  std::function<void(std::string_view line)> on_line;
};
inline constexpr std::size_t line_limit = 1u << 20;

// One output stream: its first `*_limit` bytes, its last `tail_limit` bytes, and whether the
// head lost anything. Bytes past the limit are still read (and dropped), so a child that prints
// without end neither blocks on a full pipe nor grows the harness's memory.
struct captured_stream {
  std::string head;
  std::string tail;
  std::size_t total_bytes = 0;
  bool truncated = false;
};

// From wait4 (getrusage of the child and the descendants it waited for) and a monotonic clock.
struct resource_usage {
  double wall_s = 0, user_s = 0, sys_s = 0, maxrss_mib = 0;
  double minflt = 0, majflt = 0, nvcsw = 0, nivcsw = 0;
  int max_threads = 0;  // with watch_threads: the most threads the child had at once; 0: not watched
};

struct process_result {
  bool started = false;       // false: nothing ran; `error` says why
  std::string error;          // also set when a started run had to be abandoned (poll failed)
  std::optional<int> exit_code;
  std::optional<int> signal;  // the signal that ended it (after a timeout: usually SIGTERM/SIGKILL)
  bool timed_out = false;
  captured_stream out, err;
  resource_usage usage;
  std::map<std::string, double> counters;  // "instructions", "cycles", "cache_misses" when available
  std::string counters_unavailable;        // why `counters` is empty, when it is
  double started_at_unix = 0.0;
};

// Runs `options.argv` in its own process group and waits for it. When the child exits, anything
// it left running in its group is SIGKILLed, so no benchmark process outlives its sample. Never
// throws for a failure of the command itself: that is in the result.
//
//   process_options o;
//   o.argv = {"./bench", "--json"};
//   o.timeout_s = 60;
//   process_result r = run_process(o);
//   if (r.exit_code == 0) parse(r.out.head);
//
//   o.on_line = [](std::string_view line) { show_progress(line); };  // "[12/40] Building CXX …"
process_result run_process(const process_options& options);

}  // namespace abtest::exec
