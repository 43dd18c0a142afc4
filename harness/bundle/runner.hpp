// A bundle's runner (design §3.2): on the host that measures, check it, then run the plan's RMIT
// schedule with abtest's own executor into OUT/results.db — resumable, optionally within a budget.
//
//   DIR/run --check                      the host check alone (exit 0 or 5)
//   DIR/run --out OUT --budget-s 600     measure; stop after the round that would pass 600 s
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace abtest::bundle {

// The runner's exit codes — a contract, written in every bundle's README.txt.
enum class runner_exit : int {
  complete = 0,      // every round measured (and no benchmark failed)
  partial = 1,       // the budget (or a signal) stopped it between rounds: run again to resume
  usage = 2,         // bad flags, a plan of a newer schema or a damaged plan
  bench_failed = 4,  // a benchmark failed or an arm was INVALID (as abtest's exit 4)
  refused = 5,       // the host check refused: a missing or changed program, a library, no device
  output = 6,        // OUT cannot be written (unwritable, disk full); what was measured stays there
};

class runner_error : public std::runtime_error {
 public:
  runner_error(runner_exit code, const std::string& what) : std::runtime_error(what), code_(code) {}
  runner_exit code() const noexcept { return code_; }

 private:
  runner_exit code_;
};

struct runner_options {
  std::filesystem::path dir;        // the bundle folder (where plan.json is)
  std::filesystem::path out;        // where results.db goes; default <dir>/out
  std::optional<double> budget_s;   // stop after the round that would pass it
  bool check_only = false;
  bool quiet = false;               // no progress lines
};

// Runs the bundle; returns the exit code (runner_exit) or throws runner_error.
int run_bundle(const runner_options& options);

}  // namespace abtest::bundle
