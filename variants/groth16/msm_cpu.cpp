// The CPU backend's H and five MSMs of every partition, with the B_G2 MSMs as A4 says.
#include <thread>
#include <vector>

#include "groth16/phases.hpp"

namespace zk::groth16::detail {

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

}  // namespace zk::groth16::detail
