// Groth16 proving (Groth 2016 §3.2, bellman's create_proof_batch): H, then MSMs, then assembly.
#include "groth16/prover.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "msm/msm.hpp"
#include "ntt/ntt.hpp"

namespace zk::groth16 {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

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

// The scalars of one partition for each query, in the queries' layout (parameters.hpp).
struct partition_scalars {
  std::vector<scalar_t> h, l, a, b;
};

partition_scalars gather(const parameters& p, const assignment_view& w, std::vector<fr> h, unsigned nthreads,
                         size_t index) {
  partition_scalars s;
  s.h = to_scalars(h, nthreads);
  const std::vector<scalar_t> in = to_scalars(w.inputs, nthreads);
  const std::vector<scalar_t> aux = to_scalars(w.aux, nthreads);
  s.l = aux;
  s.a = in;
  for (size_t j = 0; j < aux.size(); ++j)
    if (w.a_aux_density->get(j)) s.a.push_back(aux[j]);
  for (size_t j = 0; j < in.size(); ++j)
    if (w.b_input_density->get(j)) s.b.push_back(in[j]);
  for (size_t j = 0; j < aux.size(); ++j)
    if (w.b_aux_density->get(j)) s.b.push_back(aux[j]);
  if (s.a.size() != p.a.size() || s.b.size() != p.b_g1.size())
    throw std::invalid_argument("prover: partition " + std::to_string(index) +
                                ": A/B densities do not match the parameters — regenerate them for this circuit");
  return s;
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

std::vector<fr> compute_h(const assignment_view& w, size_t n, unsigned nthreads) {
  std::vector<fr> a(n, fr::zero()), b(n, fr::zero()), c(n, fr::zero());
  std::copy(w.a.begin(), w.a.end(), a.begin());
  std::copy(w.b.begin(), w.b.end(), b.begin());
  std::copy(w.c.begin(), w.c.end(), c.begin());
  const fr g = fr::generator();
  for (std::vector<fr>* v : {&a, &b, &c}) {
    intt(*v, nthreads);
    coset_ntt(*v, g, nthreads);
  }
  // Z(X) = Xⁿ − 1 is the constant gⁿ − 1 on the coset g·⟨ω⟩.
  const fr z_inv = (g.pow(n) - fr::one()).inverse();
  for (size_t i = 0; i < n; ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
  coset_intt(a, g, nthreads);
  a.resize(n - 1);  // deg H ≤ n − 2: the top coefficient is zero
  return a;
}

std::vector<proof> prove_batch(const parameters& p, std::span<const assignment_view> parts, std::mt19937_64& rng,
                               const prover_options& opt, prover_timings* timings) {
  prover_timings t;
  const size_t k = parts.size();
  for (size_t i = 0; i < k; ++i) check_shape(p, parts[i], i);

  // H for every partition (the NTT phase), then every scalar vector.
  std::vector<partition_scalars> scalars(k);
  for (size_t i = 0; i < k; ++i) {
    const auto t0 = clock_type::now();
    std::vector<fr> h = compute_h(parts[i], p.domain_size, opt.nthreads);
    t.ntt_s += seconds_since(t0);
    scalars[i] = gather(p, parts[i], std::move(h), opt.nthreads, i);
  }

  // Windows (D4): per MSM from its length, or one shared size for the average of the five.
  const size_t sizes[] = {p.h.size(), p.l.size(), p.a.size(), p.b_g1.size(), p.b_g2.size()};
  t.wbits_h = msm_window_for(opt.window, p.h.size(), sizes);
  t.wbits_l = msm_window_for(opt.window, p.l.size(), sizes);
  t.wbits_a = msm_window_for(opt.window, p.a.size(), sizes);
  t.wbits_b = msm_window_for(opt.window, p.b_g1.size(), sizes);
  const msm_options all_h{t.wbits_h, opt.nthreads}, all_l{t.wbits_l, opt.nthreads},
      all_a{t.wbits_a, opt.nthreads}, all_b{t.wbits_b, opt.nthreads};

  std::vector<g2_jacobian> b_g2(k);
  std::vector<std::thread> g2_threads;
  const auto g2_start = clock_type::now();
  if (opt.bg2 == bg2_mode::parallel) {
    for (size_t i = 0; i < k; ++i) {
      g2_threads.emplace_back([&, i] { b_g2[i] = msm(p.b_g2, scalars[i].b, {t.wbits_b, 1}); });
    }
  }

  std::vector<g1_jacobian> h_acc(k), l_acc(k), a_acc(k), b_g1(k);
  try {
    for (size_t i = 0; i < k; ++i) {
      auto t0 = clock_type::now();
      h_acc[i] = msm(p.h, scalars[i].h, all_h);
      t.msm_h_s += seconds_since(t0);
      t0 = clock_type::now();
      l_acc[i] = msm(p.l, scalars[i].l, all_l);
      t.msm_l_s += seconds_since(t0);
      t0 = clock_type::now();
      a_acc[i] = msm(p.a, scalars[i].a, all_a);
      t.msm_a_s += seconds_since(t0);
      t0 = clock_type::now();
      b_g1[i] = msm(p.b_g1, scalars[i].b, all_b);
      t.msm_b_g1_s += seconds_since(t0);
      if (opt.bg2 == bg2_mode::sequential) {
        t0 = clock_type::now();
        b_g2[i] = msm(p.b_g2, scalars[i].b, all_b);
        t.msm_b_g2_s += seconds_since(t0);
      }
    }
  } catch (...) {
    for (auto& th : g2_threads) th.join();
    throw;
  }
  for (auto& th : g2_threads) th.join();
  if (opt.bg2 == bg2_mode::parallel) t.msm_b_g2_s = seconds_since(g2_start);

  // A = α + Σ zⱼAⱼ + rδ;  B = β + Σ zⱼBⱼ + sδ;  C = Σ aux·L + H + s·A + r·B_G1 − rs·δ.
  std::vector<proof> out(k);
  const auto& vk = p.vk;
  for (size_t i = 0; i < k; ++i) {
    const fr r = fr::random(rng), s = fr::random(rng);
    const g1_jacobian a = a_acc[i] + vk.alpha_g1 + mul(vk.delta_g1, r);
    const g2_jacobian b = b_g2[i] + vk.beta_g2 + mul(vk.delta_g2, s);
    const g1_jacobian b1 = b_g1[i] + vk.beta_g1 + mul(vk.delta_g1, s);
    const g1_jacobian c = l_acc[i] + h_acc[i] + mul(a, s) + mul(b1, r) - mul(vk.delta_g1, r * s);
    out[i] = {a.to_affine(), b.to_affine(), c.to_affine()};
  }
  if (timings) *timings = t;
  return out;
}

}  // namespace zk::groth16
