// Deterministic Groth16 setup from a seed: QAP evaluation at τ, then the parameter vectors.
//
//   auto params = zk::groth16::setup(circuit, /*seed=*/1);                 // always computes
//   auto params = zk::groth16::load_or_setup(circuit, 1, ".abtest/params");  // the SRS-cache analog
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/param_cache.hpp"
#include "groth16/parameters.hpp"
#include "groth16/qap_assembly.hpp"

namespace zk::groth16 {

// The trapdoor. Drawn from a seeded generator: a model prover's parameters, never a real ceremony.
struct toxic_waste {
  fr tau, alpha, beta, gamma, delta;
};
toxic_waste toxic_waste_from_seed(uint64_t seed);

// Lᵢ(τ) for the domain of size n (a power of two): Lᵢ(τ) = (τⁿ − 1)/n · ωⁱ/(τ − ωⁱ).
std::vector<fr> lagrange_at(const fr& tau, size_t n);

// The smallest power of two ≥ num_constraints.
size_t domain_size_for(size_t num_constraints);

// Everything after synthesis: the query vectors from an evaluated assembly (setup.cpp).
parameters generate_parameters(const qap_assembly& qap, const toxic_waste& tw, size_t domain_size,
                               unsigned nthreads = 0);

// The digest of the circuit's constraint matrices (one counting synthesis); the cache key.
template <class Circuit>
std::string circuit_digest(const Circuit& circuit) {
  qap_assembly count({});
  synthesize_for_setup(circuit, count);
  return count.matrix_digest.hex();
}

template <class Circuit>
parameters setup(const Circuit& circuit, uint64_t seed, unsigned nthreads = 0) {
  qap_assembly count({});
  synthesize_for_setup(circuit, count);
  const size_t n = domain_size_for(count.num_constraints);
  const toxic_waste tw = toxic_waste_from_seed(seed);
  const std::vector<fr> lagrange = lagrange_at(tw.tau, n);
  qap_assembly qap(lagrange);
  synthesize_for_setup(circuit, qap);
  parameters p = generate_parameters(qap, tw, n, nthreads);
  p.circuit_digest = count.matrix_digest.hex();
  return p;
}

// Loads the parameters of (circuit, seed) from cache_dir, or runs the setup and stores them there.
// `from_cache`, when given, says which happened.
template <class Circuit>
parameters load_or_setup(const Circuit& circuit, uint64_t seed, const std::filesystem::path& cache_dir,
                         unsigned nthreads = 0, bool* from_cache = nullptr) {
  const std::filesystem::path file = cache_path(cache_dir, circuit_digest(circuit), seed);
  if (auto cached = load_parameters(file)) {
    if (from_cache) *from_cache = true;
    return std::move(*cached);
  }
  parameters p = setup(circuit, seed, nthreads);
  save_parameters(p, file);
  if (from_cache) *from_cache = false;
  return p;
}

}  // namespace zk::groth16
