// zk::gpu::ntt: the Fr NTT on the device (forward, inverse, coset), with B1 registration and timings.
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "gpu/api.hpp"
#include "gpu/cuda_ok.cuh"
#include "gpu/device.cuh"
#include "gpu/device_memory.cuh"
#include "gpu/ntt/ntt.cuh"
#include "ntt/ntt.hpp"

namespace zk::gpu {
namespace {

using namespace detail;
using clock_type = std::chrono::steady_clock;
constexpr unsigned threads_per_block = 256;

unsigned nblocks(size_t nthreads) { return static_cast<unsigned>((nthreads + threads_per_block - 1) / threads_per_block); }

// The two tables of ntt_kernels::power_table for x, covering exponents < 2^lg_n, on the device.
struct device_powers {
  device_buffer<fr> lo, hi;
  device_powers(const fr& x, unsigned lg_n)
      : lo(size_t{1} << ntt_kernels::lg_lo_size),
        hi(size_t{1} << (lg_n > ntt_kernels::lg_lo_size ? lg_n - ntt_kernels::lg_lo_size : 0)) {
    std::vector<fr> l(lo.size()), h(hi.size());
    fr p = fr::one();
    for (auto& v : l) {
      v = p;
      p *= x;
    }
    const fr step = p;  // x^lo_size
    p = fr::one();
    for (auto& v : h) {
      v = p;
      p *= step;
    }
    ZK_CUDA_OK(cudaMemcpy(lo.get(), l.data(), l.size() * sizeof(fr), cudaMemcpyHostToDevice));
    ZK_CUDA_OK(cudaMemcpy(hi.get(), h.data(), h.size() * sizeof(fr), cudaMemcpyHostToDevice));
  }
  ntt_kernels::power_table table() const { return {lo.get(), hi.get()}; }
};

// The radix-2 transform of ntt.cpp's `transform` with root `root`: bit reversal, then every stage.
void transform(fr* a, unsigned lg_n, const fr& root, const stream& s) {
  if (lg_n == 0) return;
  const device_powers w(root, lg_n);
  const size_t n = size_t{1} << lg_n;
  ntt_kernels::bit_reverse<<<nblocks(n), threads_per_block, 0, s.get()>>>(a, lg_n);
  ZK_CUDA_OK(cudaGetLastError());
  const unsigned lg_tile = std::min(lg_n, ntt_kernels::lg_tile_max);
  ntt_kernels::shared_stages<<<static_cast<unsigned>(n >> lg_tile), 1u << (lg_tile - 1), 0, s.get()>>>(
      a, lg_tile, lg_n, w.table());
  ZK_CUDA_OK(cudaGetLastError());
  for (unsigned lg_m = lg_tile; lg_m < lg_n; ++lg_m) {
    ntt_kernels::global_stage<<<nblocks(n / 2), threads_per_block, 0, s.get()>>>(a, lg_m, lg_n, w.table());
    ZK_CUDA_OK(cudaGetLastError());
  }
  s.sync();  // `w` is freed on return
}

void scale(fr* a, unsigned lg_n, const fr& c, const fr* shift, const stream& s) {
  const device_powers p(shift ? *shift : fr::one(), shift ? lg_n : 0);
  ntt_kernels::scale<<<nblocks(size_t{1} << lg_n), threads_per_block, 0, s.get()>>>(a, lg_n, c, p.table(),
                                                                                   shift != nullptr);
  ZK_CUDA_OK(cudaGetLastError());
  s.sync();
}

}  // namespace

status ntt(fr* data, unsigned lg_domain_size, ntt_direction direction, ntt_domain domain, const ntt_config& config,
           ntt_report* report) {
  if (const status st = probe_device(); !st.ok()) return st;
  return guarded([&] {
    if (lg_domain_size > 30) throw std::invalid_argument("gpu ntt: lg_domain_size above 30 — split the domain");
    if (data == nullptr) throw std::invalid_argument("gpu ntt: data is null");
    const unsigned lg_n = lg_domain_size;
    const size_t n = size_t{1} << lg_n, bytes = n * sizeof(fr);
    ntt_report rep;
    rep.host_register = config.host_register;

    auto t0 = clock_type::now();
    host_registration pinned(data, bytes, config.host_register);
    rep.time.host_register_s += seconds_between(t0, clock_type::now());

    const stream s;
    device_buffer<fr> a(n);
    t0 = clock_type::now();
    ZK_CUDA_OK(cudaMemcpyAsync(a.get(), data, bytes, cudaMemcpyHostToDevice, s.get()));
    s.sync();
    rep.time.transfer_s += seconds_between(t0, clock_type::now());

    event start, stop;
    start.record(s);
    const fr g = fr::generator();
    const fr root = domain_root(lg_n);
    if (direction == ntt_direction::forward) {
      if (domain == ntt_domain::coset) scale(a.get(), lg_n, fr::one(), &g, s);
      transform(a.get(), lg_n, root, s);
    } else {
      transform(a.get(), lg_n, root.inverse(), s);
      const fr n_inv = fr::from_u64(n).inverse();
      const fr g_inv = g.inverse();
      scale(a.get(), lg_n, n_inv, domain == ntt_domain::coset ? &g_inv : nullptr, s);
    }
    stop.record(s);
    rep.time.kernel_s = stop.seconds_since(start);

    t0 = clock_type::now();
    ZK_CUDA_OK(cudaMemcpyAsync(data, a.get(), bytes, cudaMemcpyDeviceToHost, s.get()));
    s.sync();
    rep.time.transfer_s += seconds_between(t0, clock_type::now());

    t0 = clock_type::now();
    pinned.release();
    rep.time.host_register_s += seconds_between(t0, clock_type::now());
    if (report) *report = rep;
  });
}

}  // namespace zk::gpu
