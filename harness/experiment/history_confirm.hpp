// `abtest history --confirm`: the A/B of the two builds on either side of a change point, run as an
// experiment (kind run) through the scheduler and stored like any other (design §7 "Change points").
#pragma once

#include <optional>
#include <string>

#include "db/results_store.hpp"
#include "harness/experiment/context.hpp"

namespace abtest {

struct confirm_request {
  std::int64_t changepoint_id = 0;
  std::string variant, metric;
  std::string before, after;  // the experiments of the night before the change and of the night at it
  int rounds = 10;
  double margin = 0.01;
  std::string manifest;      // real builds: this manifest (--manifest), "" = the one the later night recorded
  std::string command_line;  // recorded with the A/B's experiment
};

struct confirmation {
  std::string verdict;     // slower | faster | same | inconclusive | invalid; "" when the A/B could not run
  std::string experiment;  // the A/B's experiment ("" when nothing was measured)
  std::optional<double> ratio, ci_low, ci_high;
  std::string note;        // why it could not run, or how the arms were obtained
};

// Runs the A/B of `variant` as measured `before` vs `after` on `metric`:
// - nights drawn from a scenario (`--simulate`): each arm from its own night's scenario file;
// - real builds: each night's build folder when it still holds the recorded binaries (same hashes),
//   else a rebuild of the recorded commit in its own worktree (like `bisect --commits`); a dirty
//   or unrecorded build cannot be rebuilt and is reported as such;
// - identical binaries on both sides: SAME by construction, nothing measured (design §5).
// The outcome is also written into the change point's note (its triage state is left alone). An A/B
// already completed for the same change point and nights is reused, not run again.
confirmation confirm_changepoint(db::results_store& store, const confirm_request& r, const experiment_context& ctx);

}  // namespace abtest
