// The Groth16 verifier: one multi-pairing check.
#pragma once

#include <span>

#include "ff/fr.hpp"
#include "groth16/parameters.hpp"
#include "groth16/proof.hpp"

namespace zk::groth16 {

// e(A, B) = e(α, β)·e(Σ xᵢ·ICᵢ, γ)·e(C, δ), with x₀ = 1 and x₁… = public_inputs, checked as one
// product of four Miller loops and one final exponentiation. False (not an exception) for a proof
// whose points are off the curve or outside the prime-order subgroups, or the wrong input count.
bool verify(const verifying_key& vk, const proof& pr, std::span<const fr> public_inputs);

}  // namespace zk::groth16
