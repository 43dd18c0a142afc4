// The Groth16 setup proper (Groth 2016, "On the size of pairing-based non-interactive arguments",
// §3.2), in bellman's layout: toxic waste from a seed, Lagrange basis at τ, fixed-base MSMs.
#include "groth16/setup.hpp"

#include <algorithm>
#include <bit>
#include <random>
#include <stdexcept>

#include "groth16/fixed_base.hpp"
#include "ntt/ntt.hpp"

namespace zk::groth16 {
namespace {

template <class A>
A times(const A& base, const fr& k) {
  using J = jacobian_t<typename A::field, typename A::curve>;
  uint64_t c[4];
  k.to_canonical(c);
  return scalar_mul(J::from_affine(base), c, 4).to_affine();
}

fr nonzero(std::mt19937_64& rng) {
  for (;;) {
    const fr x = fr::random(rng);
    if (!x.is_zero()) return x;
  }
}

}  // namespace

toxic_waste toxic_waste_from_seed(uint64_t seed) {
  std::mt19937_64 rng(seed);
  toxic_waste tw;
  tw.tau = nonzero(rng);
  tw.alpha = nonzero(rng);
  tw.beta = nonzero(rng);
  tw.gamma = nonzero(rng);
  tw.delta = nonzero(rng);
  return tw;
}

size_t domain_size_for(size_t num_constraints) { return std::bit_ceil(std::max<size_t>(num_constraints, 1)); }

std::vector<fr> lagrange_at(const fr& tau, size_t n) {
  const fr w = domain_root(static_cast<unsigned>(std::countr_zero(n)));
  std::vector<fr> out(n);
  std::vector<fr> powers(n);  // ωⁱ
  fr p = fr::one();
  for (size_t i = 0; i < n; ++i, p *= w) {
    powers[i] = p;
    out[i] = tau - p;
  }
  if (std::any_of(out.begin(), out.end(), [](const fr& d) { return d.is_zero(); }))
    throw std::invalid_argument("setup: τ lies on the evaluation domain — use another seed");
  fr::batch_inverse(out);
  const fr scale = (tau.pow(n) - fr::one()) * fr::from_u64(n).inverse();
  for (size_t i = 0; i < n; ++i) out[i] = scale * powers[i] * out[i];
  return out;
}

parameters generate_parameters(const qap_assembly& qap, const toxic_waste& tw, size_t n, unsigned nthreads) {
  const g1_affine g1 = g1_generator();
  const g2_affine g2 = g2_generator();
  const fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();

  parameters p;
  p.num_inputs = qap.inputs.at.size();
  p.num_aux = qap.aux.at.size();
  p.num_constraints = qap.num_constraints;
  p.domain_size = n;

  p.vk.alpha_g1 = times(g1, tw.alpha);
  p.vk.beta_g1 = times(g1, tw.beta);
  p.vk.beta_g2 = times(g2, tw.beta);
  p.vk.gamma_g2 = times(g2, tw.gamma);
  p.vk.delta_g1 = times(g1, tw.delta);
  p.vk.delta_g2 = times(g2, tw.delta);

  // H: τⁱ·Z(τ)/δ, Z(τ) = τⁿ − 1.
  std::vector<fr> k(n - 1);
  fr acc = (tw.tau.pow(n) - fr::one()) * delta_inv;
  for (size_t i = 0; i + 1 < n; ++i, acc *= tw.tau) k[i] = acc;
  p.h = fixed_base_mul(g1, std::span<const fr>(k), nthreads);

  auto combined = [&](const qap_assembly::side& s, size_t j, const fr& inv) {
    return (tw.beta * s.at[j] + tw.alpha * s.bt[j] + s.ct[j]) * inv;
  };
  k.clear();
  for (size_t j = 0; j < p.num_inputs; ++j) k.push_back(combined(qap.inputs, j, gamma_inv));
  p.vk.ic = fixed_base_mul(g1, std::span<const fr>(k), nthreads);
  k.clear();
  for (size_t j = 0; j < p.num_aux; ++j) k.push_back(combined(qap.aux, j, delta_inv));
  p.l = fixed_base_mul(g1, std::span<const fr>(k), nthreads);

  k.clear();
  for (size_t j = 0; j < p.num_inputs; ++j) k.push_back(qap.inputs.at[j]);
  for (size_t j = 0; j < p.num_aux; ++j)
    if (qap.aux.a_touched[j]) k.push_back(qap.aux.at[j]);
  p.a = fixed_base_mul(g1, std::span<const fr>(k), nthreads);

  k.clear();
  for (size_t j = 0; j < p.num_inputs; ++j)
    if (qap.inputs.b_touched[j]) k.push_back(qap.inputs.bt[j]);
  for (size_t j = 0; j < p.num_aux; ++j)
    if (qap.aux.b_touched[j]) k.push_back(qap.aux.bt[j]);
  p.b_g1 = fixed_base_mul(g1, std::span<const fr>(k), nthreads);
  p.b_g2 = fixed_base_mul(g2, std::span<const fr>(k), nthreads);
  return p;
}

}  // namespace zk::groth16
