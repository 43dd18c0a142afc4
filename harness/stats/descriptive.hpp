// Descriptive statistics with explicit degenerate cases: median, quantiles, MAD, mean, sd.
#pragma once

#include <span>

namespace abtest::stats {

// Every function returns NaN for an empty input (there is nothing to describe); none throws.

double mean(std::span<const double> x);

// Sample standard deviation (divisor n − 1); NaN when n < 2, 0 when all values are equal.
double sd(std::span<const double> x);

// Sample quantile, p in [0, 1], by linear interpolation between order statistics: Hyndman & Fan
// (1996) definition 7, the default of R's quantile() and numpy.quantile. Example: quantile({1,2,3,4},
// 0.25) == 1.75.
double quantile(std::span<const double> x, double p);

double median(std::span<const double> x);

// Median absolute deviation from the median, unscaled; multiply by 1.4826 for a consistent
// estimate of σ under normality (Rousseeuw & Croux 1993). 0 when more than half the values are equal.
double mad(std::span<const double> x);

}  // namespace abtest::stats
