// Groth16 verification (Groth 2016 §3.2) with a shared final exponentiation.
#include "groth16/verifier.hpp"

#include "pairing/pairing.hpp"

namespace zk::groth16 {

bool verify(const verifying_key& vk, const proof& pr, std::span<const fr> public_inputs) {
  if (public_inputs.size() + 1 != vk.ic.size()) return false;
  if (!is_in_subgroup(pr.a) || !is_in_subgroup(pr.b) || !is_in_subgroup(pr.c)) return false;
  g1_jacobian acc = g1_jacobian::from_affine(vk.ic[0]);
  for (size_t i = 0; i < public_inputs.size(); ++i) {
    uint64_t k[4];
    public_inputs[i].to_canonical(k);
    acc += scalar_mul(g1_jacobian::from_affine(vk.ic[i + 1]), k, 4);
  }
  // e(A, B)·e(−Σ, γ)·e(−C, δ)·e(−α, β) = 1
  const g1_affine ps[4] = {pr.a, -acc.to_affine(), -pr.c, -vk.alpha_g1};
  const g2_affine qs[4] = {pr.b, vk.gamma_g2, vk.delta_g2, vk.beta_g2};
  return final_exponentiation(multi_miller_loop(ps, qs)) == fp12::one();
}

}  // namespace zk::groth16
