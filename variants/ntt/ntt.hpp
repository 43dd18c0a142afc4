// Radix-2 number-theoretic transforms over Fr on power-of-two domains: forward, inverse, coset.
//
// The domain of size n = 2^lg is {ωₙ^k}, ωₙ = ω^(2^(32−lg)) with ω Fr's 2³²-th root of unity
// (bellman / arkworks). Inputs and outputs are in natural order.
//
//   zk::intt(evals);                      // evaluations on the domain → coefficients
//   zk::coset_ntt(evals, zk::fr::generator());  // coefficients → evaluations on g·domain
#pragma once

#include <cstddef>
#include <span>

#include "ff/fr.hpp"

namespace zk {

// The primitive 2^lg_domain_size-th root of unity; lg_domain_size ≤ 32.
fr domain_root(unsigned lg_domain_size);

// Permutes a (length a power of two) into bit-reversed index order.
void bit_reverse(std::span<fr> a);

// âₖ = Σⱼ aⱼ·ωₙ^(jk). a.size() must be a power of two ≤ 2³² (else std::invalid_argument).
// nthreads: 0 = all cores.
void ntt(std::span<fr> a, unsigned nthreads = 0);
// The inverse: aⱼ = n⁻¹·Σₖ âₖ·ωₙ^(−jk).
void intt(std::span<fr> a, unsigned nthreads = 0);
// Evaluations of the polynomial with coefficients a on the coset shift·domain.
void coset_ntt(std::span<fr> a, const fr& shift, unsigned nthreads = 0);
// Coefficients from evaluations on the coset shift·domain.
void coset_intt(std::span<fr> a, const fr& shift, unsigned nthreads = 0);

}  // namespace zk
