// Page's CUSUM alarm on the latest nights of a series, against the level since its last change point.
#pragma once

#include <cstddef>
#include <vector>

namespace abtest::changepoint {

enum class alarm { none, slower, faster };

struct cusum_options {
  double k = 0.5;  // allowance, in σ: half the shift to detect quickly (1σ)
  double h = 5.0;  // least decision interval, in σ; k = 0.5, h = 5 gives an in-control run length
                   // of ~930 nights per side with known parameters (Montgomery, "Introduction to
                   // Statistical Quality Control", table 9.3)
  // Chance per side that a clean series alarms on its latest night. The parameters are estimated
  // from as few as 10 nights, which makes h = 5 far too low (seeded simulation, mean/SD reference:
  // 10 reference nights and 2 summed → 0.19% per side, 14 summed → 5.2%; 50 and 14 → 0.9%; with
  // median/MAD 1.2%, 11% and 1.6%), and a nightly watches ~100 series. h is raised to the
  // (1 − false_alarm) quantile of the latest S⁺ of clean series with the same numbers of reference
  // and summed nights (calibrated_h): 5.67 for 10 + 2, 18.75 for 10 + 14. 0 keeps h as given.
  double false_alarm = 0.001;
  std::size_t window = 14;         // the sums run over the latest nights (two weeks)
  std::size_t min_reference = 10;  // fewest points before them that set the in-control level
};

struct cusum_result {
  alarm state = alarm::none;
  double upper = 0;  // S⁺ at the latest point, in σ
  double lower = 0;  // S⁻ at the latest point, in σ
  double h = 0;      // the decision interval used
  std::size_t since = 0;  // first point the sums run over
};

// Two-sided tabular CUSUM (Page 1954, "Continuous inspection schemes", Biometrika 41):
// S⁺_t = max(0, S⁺_{t−1} + z_t − k), S⁻_t = max(0, S⁻_{t−1} − z_t − k), z = (x − μ̂)/σ̂, over the
// latest `window` nights (but never before start + min_reference). μ̂ = mean and σ̂ = SD (the
// series is outlier-screened first) of the points from `start` (the last change point) up to there:
// estimating the level from more than a handful of points keeps its error from accumulating in the
// sums — with 10 reference points and 50 summed nights a third of clean series alarmed in
// simulation — and h is raised for the estimation error that remains (cusum_options::false_alarm).
// The alarm is for the latest point: S⁺ > h → slower, S⁻ > h → faster (for a time; history mirrors
// it for a rate). Fewer than min_reference + 1 points after `start`, or σ̂ = 0 → no alarm.
cusum_result cusum_latest(const std::vector<double>& x, std::size_t start = 0, const cusum_options& options = {});

// The (1 − false_alarm) quantile of S⁺ at the latest of `summed` nights of a clean N(0, 1) series
// whose level and spread are estimated (mean, SD) from the `reference` nights before them:
// 40 000 replicates from a fixed seed (deterministic), cached; references over 60 count as 60.
double calibrated_h(std::size_t reference, std::size_t summed, double k, double false_alarm);

}  // namespace abtest::changepoint
