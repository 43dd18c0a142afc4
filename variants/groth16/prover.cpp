// Groth16 proving (Groth 2016 §3.2, bellman's create_proof_batch): H, then MSMs, then assembly.
#include "groth16/prover.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>

#include "gpu/api.hpp"
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

// Every scalar vector but H's, which the NTT phase fills in.
partition_scalars gather(const parameters& p, const assignment_view& w, unsigned nthreads, size_t index) {
  partition_scalars s;
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

// The five MSMs of every partition.
struct msm_results {
  std::vector<g1_jacobian> h, l, a, b_g1;
  std::vector<g2_jacobian> b_g2;
  explicit msm_results(size_t k) : h(k), l(k), a(k), b_g1(k), b_g2(k) {}
};

// One of a, b, c zero-padded to the domain.
std::vector<fr> padded(std::span<const fr> v, size_t n) {
  std::vector<fr> out(n, fr::zero());
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

// a ← (a·b − c)/Z pointwise on the coset g·⟨ω⟩, where Z(X) = Xⁿ − 1 is the constant gⁿ − 1.
void divide_on_coset(std::vector<fr>& a, const std::vector<fr>& b, const std::vector<fr>& c, const fr& g) {
  const size_t n = a.size();
  const fr z_inv = (g.pow(n) - fr::one()).inverse();
  for (size_t i = 0; i < n; ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
}

void check_gpu(const gpu::status& st, const char* call) {
  if (!st.ok()) throw gpu_error(std::string("gpu: ") + call + ": " + gpu::to_string(st.code) + ": " + st.message);
}

void add_gpu_time(prover_timings& t, const gpu::timings& g) {
  t.host_register_s += g.host_register_s;
  t.transfer_s += g.transfer_s;
  t.gpu_s += g.kernel_s;
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
  std::vector<fr> a = padded(w.a, n), b = padded(w.b, n), c = padded(w.c, n);
  const fr g = fr::generator();
  for (std::vector<fr>* v : {&a, &b, &c}) {
    intt(*v, nthreads);
    coset_ntt(*v, g, nthreads);
  }
  divide_on_coset(a, b, c, g);
  coset_intt(a, g, nthreads);
  a.resize(n - 1);  // deg H ≤ n − 2: the top coefficient is zero
  return a;
}

std::vector<fr> compute_h_gpu(const assignment_view& w, size_t n, prover_timings& t, bool host_register) {
  std::vector<fr> a = padded(w.a, n), b = padded(w.b, n), c = padded(w.c, n);
  const unsigned lg = static_cast<unsigned>(std::countr_zero(n));
  const gpu::ntt_config config{.host_register = host_register};
  const auto run = [&](std::vector<fr>& v, gpu::ntt_direction dir, gpu::ntt_domain dom) {
    gpu::ntt_report rep;
    check_gpu(gpu::ntt(v.data(), lg, dir, dom, config, &rep), "ntt");
    add_gpu_time(t, rep.time);
    t.host_register = rep.host_register;
    if (!rep.host_register_error.empty()) t.host_register_error = rep.host_register_error;
  };
  // The CPU route step for step: intt, coset_ntt (shift fr::generator()), divide, coset_intt.
  for (std::vector<fr>* v : {&a, &b, &c}) {
    run(*v, gpu::ntt_direction::inverse, gpu::ntt_domain::natural);
    run(*v, gpu::ntt_direction::forward, gpu::ntt_domain::coset);
  }
  divide_on_coset(a, b, c, fr::generator());
  run(a, gpu::ntt_direction::inverse, gpu::ntt_domain::coset);
  a.resize(n - 1);
  return a;
}

namespace {

msm_results msms_on_cpu(const parameters& p, std::span<const assignment_view> parts, const prover_options& opt,
                        prover_timings& t) {
  const size_t k = parts.size();
  // H for every partition (the NTT phase), then every scalar vector.
  std::vector<partition_scalars> scalars(k);
  for (size_t i = 0; i < k; ++i) {
    const auto t0 = clock_type::now();
    std::vector<fr> h = compute_h(parts[i], p.domain_size, opt.nthreads);
    t.ntt_s += seconds_since(t0);
    scalars[i] = gather(p, parts[i], opt.nthreads, i);
    scalars[i].h = to_scalars(h, opt.nthreads);
  }

  // Windows (D4): per MSM from its length, or one shared size for the average of the five.
  const size_t sizes[] = {p.h.size(), p.l.size(), p.a.size(), p.b_g1.size(), p.b_g2.size()};
  t.wbits_h = msm_window_for(opt.window, p.h.size(), sizes);
  t.wbits_l = msm_window_for(opt.window, p.l.size(), sizes);
  t.wbits_a = msm_window_for(opt.window, p.a.size(), sizes);
  t.wbits_b = msm_window_for(opt.window, p.b_g1.size(), sizes);
  const msm_options all_h{t.wbits_h, opt.nthreads}, all_l{t.wbits_l, opt.nthreads},
      all_a{t.wbits_a, opt.nthreads}, all_b{t.wbits_b, opt.nthreads};

  msm_results r(k);
  std::vector<std::thread> g2_threads;
  const auto g2_start = clock_type::now();
  if (opt.bg2 == bg2_mode::parallel) {
    for (size_t i = 0; i < k; ++i) {
      g2_threads.emplace_back([&, i] { r.b_g2[i] = msm(p.b_g2, scalars[i].b, {t.wbits_b, 1}); });
    }
  }

  try {
    for (size_t i = 0; i < k; ++i) {
      auto t0 = clock_type::now();
      r.h[i] = msm(p.h, scalars[i].h, all_h);
      t.msm_h_s += seconds_since(t0);
      t0 = clock_type::now();
      r.l[i] = msm(p.l, scalars[i].l, all_l);
      t.msm_l_s += seconds_since(t0);
      t0 = clock_type::now();
      r.a[i] = msm(p.a, scalars[i].a, all_a);
      t.msm_a_s += seconds_since(t0);
      t0 = clock_type::now();
      r.b_g1[i] = msm(p.b_g1, scalars[i].b, all_b);
      t.msm_b_g1_s += seconds_since(t0);
      if (opt.bg2 == bg2_mode::sequential) {
        t0 = clock_type::now();
        r.b_g2[i] = msm(p.b_g2, scalars[i].b, all_b);
        t.msm_b_g2_s += seconds_since(t0);
      }
    }
  } catch (...) {
    for (auto& th : g2_threads) th.join();
    throw;
  }
  for (auto& th : g2_threads) th.join();
  if (opt.bg2 == bg2_mode::parallel) t.msm_b_g2_s = seconds_since(g2_start);
  return r;
}

// NTTs and G1 MSMs on the device; the B_G2 MSMs start first on CPU threads (as A4 says: one per
// partition single-threaded, or one after another with the whole pool) and overlap all of it.
msm_results msms_on_gpu(const parameters& p, std::span<const assignment_view> parts, const prover_options& opt,
                        prover_timings& t) {
  const size_t k = parts.size();
  std::vector<partition_scalars> scalars(k);
  for (size_t i = 0; i < k; ++i) scalars[i] = gather(p, parts[i], opt.nthreads, i);

  const size_t sizes[] = {p.h.size(), p.l.size(), p.a.size(), p.b_g1.size(), p.b_g2.size()};
  const unsigned wbits_g2 = msm_window_for(opt.window, p.b_g1.size(), sizes);  // the CPU path's B window
  msm_results r(k);
  std::vector<std::thread> g2_threads;
  std::vector<double> g2_done_s(opt.bg2 == bg2_mode::parallel ? k : 1, 0.0);
  const auto g2_start = clock_type::now();
  if (opt.bg2 == bg2_mode::parallel) {
    for (size_t i = 0; i < k; ++i) {
      g2_threads.emplace_back([&, i] {
        r.b_g2[i] = msm(p.b_g2, scalars[i].b, {wbits_g2, 1});
        g2_done_s[i] = seconds_since(g2_start);
      });
    }
  } else {
    g2_threads.emplace_back([&] {
      for (size_t i = 0; i < k; ++i) r.b_g2[i] = msm(p.b_g2, scalars[i].b, {wbits_g2, opt.nthreads});
      g2_done_s[0] = seconds_since(g2_start);
    });
  }

  try {
    for (size_t i = 0; i < k; ++i) {
      const auto t0 = clock_type::now();
      std::vector<fr> h = compute_h_gpu(parts[i], p.domain_size, t, opt.host_register);
      t.ntt_s += seconds_since(t0);
      scalars[i].h = to_scalars(h, opt.nthreads);
    }
    size_t total = 0;
    for (size_t n : sizes) total += n;
    const gpu::msm_config config{.wbits = 0, .window = opt.window, .shared_npoints = total / std::size(sizes),
                                 .host_register = opt.host_register};
    const auto g1 = [&](std::span<const g1_affine> points, std::span<const scalar_t> s, double& phase_s,
                        unsigned& wbits) {
      const auto t0 = clock_type::now();
      gpu::msm_report rep;
      g1_jacobian acc;
      check_gpu(gpu::msm_g1(points, s, config, &acc, &rep), "msm_g1");
      phase_s += seconds_since(t0);
      add_gpu_time(t, rep.time);
      wbits = rep.wbits;
      t.host_register = rep.host_register;
      if (!rep.host_register_error.empty()) t.host_register_error = rep.host_register_error;
      return acc;
    };
    for (size_t i = 0; i < k; ++i) {
      r.h[i] = g1(p.h, scalars[i].h, t.msm_h_s, t.wbits_h);
      r.l[i] = g1(p.l, scalars[i].l, t.msm_l_s, t.wbits_l);
      r.a[i] = g1(p.a, scalars[i].a, t.msm_a_s, t.wbits_a);
      r.b_g1[i] = g1(p.b_g1, scalars[i].b, t.msm_b_g1_s, t.wbits_b);
    }
  } catch (...) {
    for (auto& th : g2_threads) th.join();
    throw;
  }
  for (auto& th : g2_threads) th.join();
  t.msm_b_g2_s = *std::max_element(g2_done_s.begin(), g2_done_s.end());
  return r;
}

}  // namespace

std::vector<proof> prove_batch(const parameters& p, std::span<const assignment_view> parts, std::mt19937_64& rng,
                               const prover_options& opt, prover_timings* timings) {
  prover_timings t;
  const size_t k = parts.size();
  for (size_t i = 0; i < k; ++i) check_shape(p, parts[i], i);

  const msm_results m = opt.backend == backend::cuda ? msms_on_gpu(p, parts, opt, t) : msms_on_cpu(p, parts, opt, t);

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
