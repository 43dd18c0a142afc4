// The duet's estimator (design §6): paired log differences adjusted for the two things a duet
// cannot help but vary — which core each arm ran on, and which arm started first. Measured here on
// an A/A duet, the arm on the busier core took 2.5× as long, and the arm started second read ~1%
// faster (it runs alone at the end, without its partner on the sibling core). The scheduler
// balances both (plan.hpp): the cores swap every round, the start order every two rounds.
//
// The unit of the analysis is the swap pair — two consecutive rounds with the same start order and
// the cores swapped. A disturbance that sits on one core for a while (another tenant's job, an
// interrupt storm) lengthens the candidate in one round of the pair and the baseline in the other,
// so it enters the two differences with opposite signs and the pair's mean cancels it, however it
// comes and goes. Measured on `synth` here (11 duets of 16 rounds), the residuals of adjacent
// rounds were negatively correlated (lag-1 down to −0.49): a fit with one constant core effect
// (d_r = μ + γ·core_r + ρ·order_r + e_r, the first version) read those disturbances as noise, and
// its intervals were 1.5× as wide as the pair fit's for the same estimate — wider than the spread
// of the estimates between the runs called for (sd 0.013, so ±0.031 on 6 df; the pair fit's mean
// half-width was 0.036, the constant-core fit's 0.055). So: d̄_k = μ + ρ·order_k + e_k over the pair means, the
// core effect free in every pair.
#pragma once

#include <span>

#include "harness/stats/estimate.hpp"

namespace abtest::stats {

// μ̂ with its Student t CI on K − 2 degrees of freedom, K the complete swap pairs: differences that
// share a `pair` id, one with core = +1 and one with core = −1, and the same order (±1). A pair
// with a member missing (a failed round) is left out; n counts the rounds used. Fewer than 3 pairs,
// or every pair with the same order (μ cannot be told from the order effect) → no CI, as with too
// few rounds. Throws std::invalid_argument when the spans differ in length.
log_estimate crossover_t(std::span<const double> d, std::span<const double> core, std::span<const double> order,
                         std::span<const int> pair, double confidence = 0.95);

}  // namespace abtest::stats
