// PELT (pruned exact linear time) segmentation of a series into constant means, MBIC penalty.
#pragma once

#include <cstddef>
#include <vector>

namespace abtest::changepoint {

struct pelt_options {
  std::size_t min_size = 3;  // fewest points in a segment
};

// Indices where a new segment starts, ascending (0 excluded).
//
// Killick, Fearnhead & Eckley (2012), "Optimal detection of changepoints with a linear computational
// cost", JASA 107: F(t) = min_s [F(s) + C(x[s,t)) + β], pruning s when F(s) + C(x[s,t)) > F(t).
// Cost: the Gaussian negative log-likelihood of a mean change with known σ, C = Σ (x − mean)² / σ²,
// with σ estimated robustly from first differences, σ̂ = 1.4826 · MAD(Δx) / √2 (a step moves one
// difference only). Penalty: the modified BIC of Zhang & Siegmund (2007), "A modified Bayes
// information criterion with applications to the analysis of comparative genomic hybridization
// data", Biometrics 63: β = 3 ln n per change point (the mean and the location each cost ln n, and
// ln n more for the segment lengths, as the R `changepoint` package applies it). σ̂ = 0 (a constant
// series) gives no change points.
std::vector<std::size_t> pelt(const std::vector<double>& x, const pelt_options& options = {});

}  // namespace abtest::changepoint
