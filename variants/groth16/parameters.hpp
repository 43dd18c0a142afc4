// Groth16 parameters of one circuit: the verifying key and the prover's query vectors.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ec/curves.hpp"

namespace zk::groth16 {

struct verifying_key {
  g1_affine alpha_g1;
  g1_affine beta_g1;
  g2_affine beta_g2;
  g2_affine gamma_g2;
  g1_affine delta_g1;
  g2_affine delta_g2;
  std::vector<g1_affine> ic;  // (β·Aⱼ(τ) + α·Bⱼ(τ) + Cⱼ(τ))/γ · G1 per public input, input 0 = one
};

// As bellman lays them out. The A and B queries hold points only for the variables the circuit's
// A / B matrices touch (the prover's density trackers pick the matching scalars): A has every
// input then the touched aux; B_G1 and B_G2 the touched inputs then the touched aux.
struct parameters {
  verifying_key vk;
  size_t num_inputs = 0;      // including input 0, the constant one
  size_t num_aux = 0;
  size_t num_constraints = 0;  // including one per input, appended after synthesis
  size_t domain_size = 0;     // n = 2^lg ≥ num_constraints
  std::vector<g1_affine> h;   // τⁱ·Z(τ)/δ · G1, i < n − 1
  std::vector<g1_affine> l;   // (β·Aⱼ(τ) + α·Bⱼ(τ) + Cⱼ(τ))/δ · G1 per aux variable
  std::vector<g1_affine> a;   // Aⱼ(τ) · G1
  std::vector<g1_affine> b_g1;  // Bⱼ(τ) · G1
  std::vector<g2_affine> b_g2;  // Bⱼ(τ) · G2
  std::string circuit_digest;   // of the constraint matrices; the cache key
};

}  // namespace zk::groth16
