// Page's CUSUM alarm on the latest nights of a series, against the level since its last change point.
#pragma once

#include <cstddef>
#include <vector>

namespace abtest::changepoint {

enum class alarm { none, slower, faster };

struct cusum_options {
  double k = 0.5;  // allowance, in σ: half the shift to detect quickly (1σ)
  double h = 5.0;  // decision interval, in σ; k = 0.5, h = 5 gives an in-control run length of
                   // ~930 nights per side with known parameters (Montgomery, "Introduction to
                   // Statistical Quality Control", table 9.3)
  std::size_t window = 14;         // the sums run over the latest nights (two weeks)
  std::size_t min_reference = 10;  // fewest points before them that set the in-control level
};

struct cusum_result {
  alarm state = alarm::none;
  double upper = 0;  // S⁺ at the latest point, in σ
  double lower = 0;  // S⁻ at the latest point, in σ
  std::size_t since = 0;  // first point the sums run over
};

// Two-sided tabular CUSUM (Page 1954, "Continuous inspection schemes", Biometrika 41):
// S⁺_t = max(0, S⁺_{t−1} + z_t − k), S⁻_t = max(0, S⁻_{t−1} − z_t − k), z = (x − μ̂)/σ̂, over the
// latest `window` nights (but never before start + min_reference). μ̂ = median and σ̂ = 1.4826·MAD
// of the points from `start` (the last change point) up to there: estimating the level from more
// than a handful of points keeps its error from accumulating in the sums — with 10 reference
// points and 50 summed nights a third of clean series alarmed in simulation. The alarm is for the
// latest point: S⁺ > h → slower, S⁻ > h → faster. Fewer than min_reference + 1 points after
// `start`, or σ̂ = 0 → no alarm.
cusum_result cusum_latest(const std::vector<double>& x, std::size_t start = 0, const cusum_options& options = {});

}  // namespace abtest::changepoint
