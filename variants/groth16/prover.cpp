// Groth16 proving (Groth 2016 §3.2, bellman's create_proof_batch): the shapes checked, H and the MSMs
// on one backend (phases.hpp), then the proofs assembled with the randomizers r and s.
#include "groth16/prover.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "groth16/phases.hpp"

namespace zk::groth16 {
namespace {

void check_shape(const parameters& p, const assignment_view& w, size_t index) {
  const auto fail = [&](const char* what) {
    throw std::invalid_argument("prover: partition " + std::to_string(index) + ": " + what +
                                " does not match the parameters — were they made for this circuit?");
  };
  if (w.inputs.size() != p.num_inputs) fail("number of inputs");
  if (w.aux.size() != p.num_aux) fail("number of aux variables");
  if (w.a.size() != p.num_constraints || w.b.size() != p.num_constraints || w.c.size() != p.num_constraints)
    fail("number of constraints");
}

// k·P for a Jacobian point or an affine one.
template <class J>
J mul(const J& p, const fr& k) {
  uint64_t c[4];
  k.to_canonical(c);
  return scalar_mul(p, c, 4);
}
template <class F, class C>
jacobian_t<F, C> mul(const affine_t<F, C>& p, const fr& k) {
  return mul(jacobian_t<F, C>::from_affine(p), k);
}

}  // namespace

std::vector<proof> prove_batch(const parameters& p, std::span<const assignment_view> parts, std::mt19937_64& rng,
                               const prover_options& opt, prover_timings* timings) {
  prover_timings t;
  const size_t k = parts.size();
  for (size_t i = 0; i < k; ++i) check_shape(p, parts[i], i);

  const detail::msm_results m =
      opt.backend == backend::cuda ? detail::msms_on_gpu(p, parts, opt, t) : detail::msms_on_cpu(p, parts, opt, t);

  // A = α + Σ zⱼAⱼ + rδ;  B = β + Σ zⱼBⱼ + sδ;  C = Σ aux·L + H + s·A + r·B_G1 − rs·δ.
  std::vector<proof> out(k);
  const auto& vk = p.vk;
  for (size_t i = 0; i < k; ++i) {
    const fr r = fr::random(rng), s = fr::random(rng);
    const g1_jacobian a = m.a[i] + vk.alpha_g1 + mul(vk.delta_g1, r);
    const g2_jacobian b = m.b_g2[i] + vk.beta_g2 + mul(vk.delta_g2, s);
    const g1_jacobian b1 = m.b_g1[i] + vk.beta_g1 + mul(vk.delta_g1, s);
    const g1_jacobian c = m.l[i] + m.h[i] + mul(a, s) + mul(b1, r) - mul(vk.delta_g1, r * s);
    out[i] = {a.to_affine(), b.to_affine(), c.to_affine()};
  }
  if (timings) *timings = t;
  return out;
}

}  // namespace zk::groth16
