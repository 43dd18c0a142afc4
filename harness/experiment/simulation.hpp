// The simulated executor (design §12): a scenario file stands in for build + run, so the scheduler,
// the statistics and the searches run at scale against a known truth.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "harness/core/manifest.hpp"
#include "harness/core/sample_source.hpp"
#include "harness/search/scenario.hpp"

namespace abtest {

// The scenario of a `--simulate FILE` flag: nullopt when the flag is empty; a malformed file is a
// usage error (exit 2) with the parser's message.
std::optional<search::scenario> load_simulate_flag(const std::string& path);

// A manifest with the scenario's toggles and one benchmark per metric prefix
// ("proof.total_s" → benchmark "proof"); nothing in it is ever built.
manifest manifest_from_scenario(const search::scenario& s, const std::filesystem::path& file);

// Draws each sample from the scenario model. The generator of a sample is seeded from (scenario
// seed, plan seed, arm, benchmark, round, warm-up) alone, so a resumed experiment draws exactly the
// values an uninterrupted one would have. A metric's layout_cv offsets each (variant, layout) by a
// fixed draw; its shared_noise_cv is drawn per invocation, or once per duet pair.
class simulated_source : public sample_source {
 public:
  simulated_source(const search::scenario& s, const run_plan& plan) : s_(s), plan_(plan) {}
  sample run(const arm_plan& arm, const benchmark_spec& bench, int round, bool warmup) override;
  // A duet: the two samples share the moment's disturbance (the metric's shared_noise_cv).
  std::pair<sample, sample> run_pair(const arm_plan& a, const arm_plan& b, const benchmark_spec& bench, int round,
                                     bool warmup) override;

 private:
  // One sample of `arm`; `moment` names the disturbance it shares (its own slot, or the pair's).
  sample draw(const arm_plan& arm, const benchmark_spec& bench, int round, bool warmup,
                            const std::string& moment) const;

  const search::scenario& s_;
  const run_plan& plan_;
};

}  // namespace abtest
