// Outlier screening of a history series: a Hampel filter (running median ± k·MAD) so that a
// one-night spike is neither a change point nor a CUSUM alarm.
#pragma once

#include <cstddef>
#include <vector>

namespace abtest::changepoint {

struct screening_options {
  std::size_t half_window = 3;  // the running window is 2·half_window + 1 nights
  double k = 4.0;               // a point is an outlier when |x − median| > k · 1.4826 · MAD
};

struct screened_series {
  std::vector<double> values;        // the input with outliers replaced by their window's median
  std::vector<std::size_t> outliers; // indices replaced, ascending
};

// Hampel identifier (Hampel 1974; Pearson 2002, "Outliers in process modeling and identification"):
// each x_i is compared with the median m_i of the window around it (clipped at the ends) and replaced
// by m_i when |x_i − m_i| > k · 1.4826 · MAD_i; 1.4826·MAD estimates σ under normality (Rousseeuw &
// Croux 1993). MAD_i = 0 (more than half the window equal) falls back to the MAD of the whole
// series, so a flat stretch does not flag every tiny wiggle; a whole-series MAD of 0 flags nothing.
// A step survives: right after it the window's median is already on the new level.
screened_series screen_outliers(const std::vector<double>& x, const screening_options& options = {});

}  // namespace abtest::changepoint
