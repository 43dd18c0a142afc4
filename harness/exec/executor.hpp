// Runs one benchmark invocation and turns it into a sample: process + output parser + process metrics.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/exec/env_changes.hpp"
#include "harness/exec/format.hpp"
#include "harness/sample/sample.hpp"

namespace abtest::exec {

struct benchmark_invocation {
  std::string bench;                         // the manifest's benchmark name: the metric prefix
  std::string format = "json";               // a row of output_formats()
  nlohmann::json options = nlohmann::json::object();  // the format's own manifest keys (its row validated them)
  // The command with {bin} and {param}s already expanded; `{out}` is left for run_benchmark.
  std::vector<std::string> argv;
  double timeout_s = 0.0;                    // 0: no limit
  env_changes env;                           // set in, or removed from, the harness's environment
  std::string pin;                           // CPU list ("0,2-3"); empty: no affinity
  std::filesystem::path working_dir;         // empty: the harness's current directory
  std::size_t stdout_limit = 64u << 20;      // bytes of stdout kept for the parser
  bool hardware_counters = true;
  bool watch_threads = false;                // record `<bench>.threads`, the most threads seen (process_options)
  std::vector<int> ok_exit_codes{0};         // exit codes that mean "ran" (a program may exit with a count)
};

// Runs the invocation once (one sample, design §6). Status, in order of precedence:
//   could not start (or was abandoned) → failed; ran past timeout_s → timeout; ended by a signal → crashed;
//   non-zero exit → failed; else the parser's ok / no_metrics / bad_output.
// Every started sample carries the process metrics `<bench>.wall_s`, `user_s`, `sys_s`,
// `maxrss_mib`, `minflt`, `majflt`, `nvcsw`, `nivcsw`, plus `instructions`, `cycles` and
// `cache_misses` where perf_event_open is permitted (absent otherwise; context.abtest_process
// says why). A benchmark metric of the same name wins over a process metric. The output's
// metrics and checks are kept only when the process exited 0. Where the command or the format's
// env names `{out}`, each run gets a fresh path there (in a new folder under the temp directory,
// removed once the output is parsed), and the format reads what the program wrote at it.
sample run_benchmark(const benchmark_invocation& invocation);

}  // namespace abtest::exec
