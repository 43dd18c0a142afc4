// Where samples come from: real benchmark processes, or the scenario model (design §12).
#pragma once

#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/exec/duet.hpp"
#include "harness/exec/executor.hpp"
#include "harness/sample/sample.hpp"

#include <optional>
#include <utility>

namespace abtest {

class sample_source {
 public:
  virtual ~sample_source() = default;
  // One invocation of `bench` for `arm` in round `round` (one sample, design §6).
  virtual sample run(const arm_plan& arm, const benchmark_spec& bench, int round, bool warmup) = 0;
  // Two invocations of `bench` at once, for a duet (run_plan::duet). This default runs them one
  // after the other; sources that can run them together override it.
  virtual std::pair<sample, sample> run_pair(const arm_plan& a, const arm_plan& b, const benchmark_spec& bench,
                                             int round, bool warmup) {
    auto first = run(a, bench, round, warmup);
    return {std::move(first), run(b, bench, round, warmup)};
  }
};

// Runs the manifest's benchmark command from the arm's build folder, never through a shell.
class process_source : public sample_source {
 public:
  process_source(const manifest& m, const run_plan& plan) : m_(m), plan_(plan) {}
  // In a duet plan, a warm-up that used more than one core (exec::multithreaded_reason) throws
  // user_error: a duet cannot compare it. Warm-ups run alone for that reason.
  sample run(const arm_plan& arm, const benchmark_spec& bench, int round, bool warmup) override;
  // Both at once, each pinned to its own core of plan.pin (or the last two CPUs), cores swapped in
  // odd rounds; each sample's context gets {"duet": {"cpu", "overlap_s"}}.
  std::pair<sample, sample> run_pair(const arm_plan& a, const arm_plan& b, const benchmark_spec& bench, int round,
                                     bool warmup) override;

 private:
  exec::benchmark_invocation invocation(const arm_plan& arm, const benchmark_spec& bench) const;

  const manifest& m_;
  const run_plan& plan_;
  std::optional<exec::duet_cores> cores_;  // chosen at the first pair, from plan.pin
};

}  // namespace abtest
