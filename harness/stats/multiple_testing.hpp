// Multiplicity adjustments across the comparisons of one experiment.
#pragma once

#include <span>
#include <vector>

namespace abtest::stats {

// Holm (1979) step-down adjusted p-values, in input order: with p sorted ascending,
// p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) p_(j)). Controls the family-wise error rate under any
// dependence; use it for regression gates (design §7). Throws std::invalid_argument on a p outside [0, 1].
std::vector<double> holm_adjust(std::span<const double> p);

// Benjamini & Hochberg (1995) step-up q-values, in input order: q_(i) = min_{j ≥ i} min(1, m p_(j)/j)
// (the "BH" of R's p.adjust and scipy.stats.false_discovery_control). Controls the false discovery
// rate; for exploratory ranking of speed-ups only.
std::vector<double> benjamini_hochberg(std::span<const double> p);

}  // namespace abtest::stats
