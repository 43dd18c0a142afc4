// The CUDA backend's H and MSMs of every partition: NTTs and G1 MSMs on the device (zk::gpu), the
// B_G2 MSMs on CPU threads that start first and overlap all of it.
#include <algorithm>
#include <iterator>
#include <thread>
#include <vector>

#include "groth16/gpu_call.hpp"
#include "groth16/phases.hpp"

namespace zk::groth16::detail {

// The B_G2 threads run as A4 says: one per partition single-threaded, or one after another with the
// whole pool.
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

  // B1 at proof scope, as cuzk does: the G1 bases and every partition's scalars are registered for
  // this proof and unregistered after it, so B1 costs in proportion to the bytes the proof moves.
  gpu::host_pins pins(opt.host_register);
  try {
    for (size_t i = 0; i < k; ++i) {
      const auto t0 = clock_type::now();
      std::vector<fr> h = compute_h_gpu(parts[i], p.domain_size, t, opt.host_register);
      t.ntt_s += seconds_since(t0);
      scalars[i].h = to_scalars(h, opt.nthreads);
    }
    const auto pin = [&pins](const auto& v) { pins.add(v.data(), v.size() * sizeof(v[0])); };
    pin(p.h), pin(p.l), pin(p.a), pin(p.b_g1);
    for (const auto& s : scalars) pin(s.h), pin(s.l), pin(s.a), pin(s.b);
    if (!pins.failure().empty()) t.host_register_error = pins.failure();
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
      add_report(t, rep);
      wbits = rep.wbits;
      return acc;
    };
    for (size_t i = 0; i < k; ++i) {
      r.h[i] = g1(p.h, scalars[i].h, t.msm_h_s, t.wbits_h);
      r.l[i] = g1(p.l, scalars[i].l, t.msm_l_s, t.wbits_l);
      r.a[i] = g1(p.a, scalars[i].a, t.msm_a_s, t.wbits_a);
      r.b_g1[i] = g1(p.b_g1, scalars[i].b, t.msm_b_g1_s, t.wbits_b);
    }
    t.host_register_s += pins.register_s() + pins.release();
  } catch (...) {
    for (auto& th : g2_threads) th.join();
    throw;
  }
  for (auto& th : g2_threads) th.join();
  t.msm_b_g2_s = *std::max_element(g2_done_s.begin(), g2_done_s.end());
  return r;
}

}  // namespace zk::groth16::detail
