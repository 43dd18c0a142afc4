// E-divisive means with a Student t-test significance, in the form of Apache Otava (formerly Hunter).
#pragma once

#include <cstddef>
#include <vector>

namespace abtest::changepoint {

struct e_divisive_options {
  std::size_t window = 50;       // candidates are searched in windows of this many points (Otava's default)
  double max_pvalue = 0.001;     // a change point must reach this p-value against its neighbours
  double weak_pvalue = 0.01;     // candidates this significant are kept while splitting, then re-tested
  double min_magnitude = 0.01;   // δ: |exp(mean after − mean before) − 1| below this is dropped
  std::size_t min_size = 3;      // fewest points on either side of a split
};

struct change_point {
  std::size_t index = 0;   // first point of the new level
  double magnitude = 0;    // exp(mean of the right segment − mean of the left) − 1, on log values
  double p_value = 1;      // Welch t between the neighbouring segments
};

// Change points of x (log values, oldest first), ascending by index.
//
// Method (Matteson & James 2014, "A nonparametric approach for multiple change point analysis of
// multivariate data", JASA 109; with the permutation test replaced by a t-test as in Fleming et al.
// 2023, "Hunter: using change point detection to hunt for performance regressions", ICPE, and its
// successor Apache Otava):
//  1. split: in every segment between accepted points, and within it every window of `window`
//     points (stride window/2), the candidate is the τ maximising the energy statistic
//     Q̂(τ) = m(n−m)/n · [2/(m(n−m)) Σ|x_i − y_j| − C(m,2)⁻¹ Σ|x_i − x_k| − C(n−m,2)⁻¹ Σ|y_j − y_k|]
//     (α = 1) of the two halves x (m points) and y (n − m); it is tested with Welch's t between the
//     two halves; the most significant candidate with p ≤ weak_pvalue is accepted and splitting
//     repeats;
//  2. merge: each accepted point is re-tested between its neighbouring points (capped at `window`
//     points a side); the weakest point whose p > max_pvalue or whose |magnitude| < min_magnitude is
//     removed and the test repeats until every point passes.
// A series shorter than 2·min_size has no change point.
std::vector<change_point> e_divisive(const std::vector<double>& x, const e_divisive_options& options = {});

}  // namespace abtest::changepoint
