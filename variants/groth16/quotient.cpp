// The quotient H(X) = (A(X)·B(X) − C(X))/Z(X) of one partition (bellman's FFT route), with the NTTs
// on the CPU or on the device.
#include <algorithm>
#include <bit>
#include <span>
#include <vector>

#include "groth16/gpu_call.hpp"
#include "groth16/prover.hpp"
#include "ntt/ntt.hpp"

namespace zk::groth16 {
namespace {

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
    detail::check_gpu(gpu::ntt(v.data(), lg, dir, dom, config, &rep), "ntt");
    detail::add_report(t, rep);
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

}  // namespace zk::groth16
