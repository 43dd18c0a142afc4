// RAII handle of one started benchmark process: fork + execve in its own process group.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/exec/env_changes.hpp"
#include "harness/exec/perf_counters.hpp"
#include "harness/exec/unique_fd.hpp"

namespace abtest::exec {

struct spawn_options {
  // argv[0] is the program: a path when it holds a '/', else looked up in PATH (of the child's
  // environment). Never run through a shell: every element reaches the program verbatim.
  std::vector<std::string> argv;
  std::filesystem::path working_dir;          // empty: the harness's current directory
  env_changes env;                            // set in, or removed from, the harness's environment
  std::vector<int> cpus;                      // CPU affinity of the child; empty: inherit
  // perf events counted on the child from its execve; empty: none.
  std::vector<perf_event_spec> counters{hardware_events().begin(), hardware_events().end()};
};

// A started child. It leads its own process group (setpgid), so that signal_group reaches every
// process it forked; stdin is /dev/null and stdout/stderr are pipes the owner must drain.
// The destructor of a child that was never reaped SIGKILLs its group and reaps it.
class child_process {
 public:
  struct exit_info {
    int status = 0;  // as from wait4: decode with WIFEXITED / WIFSIGNALED
    rusage usage{};
  };

  child_process() = default;
  child_process(child_process&& other) noexcept;
  child_process& operator=(child_process&& other) noexcept;
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;
  ~child_process();

  // Starts the child. On failure returns nullopt and sets `error` (`<what> — <what to do>`);
  // a failure of chdir, sched_setaffinity or execve inside the child is reported here too.
  static std::optional<child_process> start(const spawn_options& options, std::string& error);

  pid_t pid() const { return pid_; }
  unique_fd& stdout_pipe() { return out_; }
  unique_fd& stderr_pipe() { return err_; }
  // A pidfd that polls readable once the child has exited, or an empty fd on kernels before 5.3.
  const unique_fd& exit_fd() const { return pidfd_; }
  const perf_counters& counters() const { return counters_; }

  // True once the child has exited (it stays a zombie, so its pid and group id stay reserved).
  bool exited() const;
  // Sends `sig` to every process of the child's group; harmless when they are all gone.
  void signal_group(int sig) const;
  // Blocks until the child exits, then reaps it with its resource usage. Call once.
  exit_info reap();

 private:
  void kill_and_reap() noexcept;

  pid_t pid_ = -1;
  bool reaped_ = true;
  unique_fd out_, err_, pidfd_;
  perf_counters counters_;
};

}  // namespace abtest::exec
