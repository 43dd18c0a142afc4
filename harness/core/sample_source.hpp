// Where samples come from: real benchmark processes, or the scenario model (DESIGN §12).
#pragma once

#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/exec/sample.hpp"

namespace abtest {

class sample_source {
 public:
  virtual ~sample_source() = default;
  // One invocation of `bench` for `arm` in round `round` (one sample, DESIGN §6).
  virtual exec::sample_outcome run(const arm_plan& arm, const benchmark_spec& bench, int round, bool warmup) = 0;
};

// Runs the manifest's benchmark command from the arm's build folder, never through a shell.
class process_source : public sample_source {
 public:
  process_source(const manifest& m, const run_plan& plan) : m_(m), plan_(plan) {}
  exec::sample_outcome run(const arm_plan& arm, const benchmark_spec& bench, int round, bool warmup) override;

 private:
  const manifest& m_;
  const run_plan& plan_;
};

}  // namespace abtest
