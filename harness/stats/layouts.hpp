// Layout randomization's statistics (design §6): each arm is linked K times with seeded code
// layouts and every layout runs once per round, so a comparison has two levels — layouts within an
// arm, rounds within a layout (Kalibera & Jones, "Rigorous benchmarking in reasonable time", ISMM
// 2013). The layout a binary happens to get is a random effect of the build, not of the toggle:
// its variance belongs in the interval, or a layout-only change reads as a real one (Mytkowicz et
// al., ASPLOS 2009; Curtsinger & Berger, ASPLOS 2013).
#pragma once

#include <vector>

#include "harness/stats/estimate.hpp"

namespace abtest::stats {

// values[k][r]: the sample of layout k in round r (> 0, finite). Every layout of both arms has the
// same rounds, in the same order.
using layout_samples = std::vector<std::vector<double>>;

struct layout_estimate {
  // ln(candidate / baseline) from the layouts' mean logs: Welch's t on the K_c and K_b layout means
  // (the variance of a layout mean already holds its rounds' noise / R). Rounds' shared drift
  // cancels: every layout of both arms ran in every round. n = K_c + K_b.
  log_estimate ratio;
  double layout_sd_candidate = 0;  // σ̂ of the layout effect, ln scale (method of moments, ≥ 0)
  double layout_sd_baseline = 0;
  double within_sd = 0;            // σ̂ of one run within a layout, each round's mean removed
  // The part of the estimate's variance that comes from layouts, in [0, 1]: what a run with one
  // layout per arm would have mistaken for the toggle's effect.
  double layout_share = 0;
};

// Throws std::invalid_argument (with what to fix) when an arm has no layout, layouts differ in
// their number of rounds, or a value is ≤ 0 or not finite. Fewer than 2 layouts in an arm → an
// estimate without a CI (has_ci false), as with too few rounds.
layout_estimate two_level_log_ratio(const layout_samples& candidate, const layout_samples& baseline,
                                    double confidence = 0.95);

}  // namespace abtest::stats
