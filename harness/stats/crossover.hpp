// The duet's estimator (issue #16): paired log differences adjusted for the two things a duet
// cannot help but vary — which core each arm ran on, and which arm started first. Measured here on
// an A/A duet, the arm on the busier core took 2.5× as long, and the arm started second read ~1%
// faster (it runs alone at the end, without its partner on the sibling core). The scheduler
// balances both (plan.hpp: duet_baseline_on_first_core, duet_baseline_starts_first); this removes
// them by least squares: d_r = μ + γ·core_r + ρ·order_r + e_r, core_r and order_r = ±1.
#pragma once

#include <span>

#include "harness/stats/estimate.hpp"

namespace abtest::stats {

// μ̂ with its Student t CI on n − 3 degrees of freedom: se(μ̂) = σ̂ · sqrt((XᵀX)⁻¹₀₀), σ̂² the
// residual sum of squares / (n − 3). Fewer than 4 rounds or a design that cannot separate μ from
// the two contrasts (e.g. every round with the same core) → no CI, as with too few rounds.
// Throws std::invalid_argument when the spans differ in length.
log_estimate crossover_t(std::span<const double> d, std::span<const double> core, std::span<const double> order,
                         double confidence = 0.95);

}  // namespace abtest::stats
