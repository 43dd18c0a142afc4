// Randomized interleaved rounds (RMIT, design §6): warm-ups, then rounds in which every arm runs
// once per benchmark in a fresh seeded order; adaptive stopping; resume from recorded samples.
#pragma once

#include <functional>
#include <vector>

#include "harness/core/analysis.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/core/sample_source.hpp"
#include "harness/core/samples.hpp"

namespace abtest {

struct schedule_result {
  int rounds_done = 0;          // measured rounds completed
  bool stopped_early = false;   // adaptive: every monitored comparison became decisive
  bool interrupted = false;     // the stop flag was raised (SIGINT/SIGTERM)
};

struct scheduler_hooks {
  // Called after each invocation, before the next starts, with the sample at its slot: record it (one
  // transaction). It may fill in where the sample ran (experiment, machine, build); the scheduler then
  // keeps the sample as recorded.
  std::function<void(sample&)> record;
  // Polled between invocations; true stops the experiment after the current sample.
  std::function<bool()> should_stop = [] { return false; };
  // Progress line (round r of R, slot i of N, ETA); the caller decides where it goes.
  std::function<void(const std::string&)> progress = [](const std::string&) {};
};

// Runs every slot of `plan` that `samples` does not hold yet, appending new ones to `samples`.
schedule_result run_schedule(const manifest& m, const run_plan& plan, sample_source& source,
                             std::vector<sample>& samples, const scheduler_hooks& hooks);

// Adaptive sampling: the monitored metrics of every candidate are decisive under the always-valid
// confidence sequence (and the minimum rounds are reached).
bool adaptive_decisive(const run_plan& plan, const std::vector<sample>& samples);

// The metrics adaptive sampling watches by default: per benchmark, `<bench>.total_s` when the
// benchmark reports it, else every `_s` metric it reports that is not a process metric.
std::vector<std::string> default_monitor_metrics(const run_plan& plan, const std::vector<sample>& samples);

}  // namespace abtest
