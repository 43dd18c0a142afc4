// zk::gpu::ntt: the Fr NTT on the device (forward, inverse, coset), with B1 registration and timings.
#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <vector>

#include "gpu/api.hpp"
#include "gpu/cuda_ok.cuh"
#include "gpu/device.cuh"
#include "gpu/device_memory.cuh"
#include "gpu/launch.cuh"
#include "gpu/ntt/ntt.cuh"
#include "gpu/ntt/ntt_steps.hpp"
#include "ntt/ntt.hpp"

namespace zk::gpu {
namespace {

using namespace detail;
using clock_type = std::chrono::steady_clock;

// The two tables of a power_table (ntt_steps.hpp) on the device: built and allocated on
// construction, then upload() copies them on the kernels' stream (a plain cudaMemcpy runs on the
// legacy stream, which a non-blocking stream does not wait for: a kernel could read a table before
// it lands). The host tables live as long as the object, so the asynchronous copies may read them
// until the stream syncs.
struct device_powers {
  ntt_steps::power_tables host;
  device_buffer<fr> lo, hi;
  device_powers(const fr& x, unsigned lg_n) : host(x, lg_n), lo(host.lo.size()), hi(host.hi.size()) {}
  void upload(const stream& s) const {
    ZK_CUDA_OK(cudaMemcpyAsync(lo.get(), host.lo.data(), host.lo.size() * sizeof(fr), cudaMemcpyHostToDevice, s.get()));
    ZK_CUDA_OK(cudaMemcpyAsync(hi.get(), host.hi.data(), host.hi.size() * sizeof(fr), cudaMemcpyHostToDevice, s.get()));
  }
  ntt_kernels::power_table table() const { return {lo.get(), hi.get()}; }
};

// Launches the radix-2 transform of ntt.cpp's `transform` with the powers `w` of its root: bit
// reversal, then every stage. Launches only: no allocation, no synchronization.
void transform(fr* a, unsigned lg_n, const device_powers& w, const stream& s) {
  if (lg_n == 0) return;
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
}

// Launches a[i] *= c·shift^i (a coset shift) or a[i] *= c (shift = nullptr).
void scale(fr* a, unsigned lg_n, const fr& c, const device_powers* shift, const stream& s) {
  const ntt_kernels::power_table none{nullptr, nullptr};
  ntt_kernels::scale<<<nblocks(size_t{1} << lg_n), threads_per_block, 0, s.get()>>>(
      a, lg_n, c, shift ? shift->table() : none, shift != nullptr);
  ZK_CUDA_OK(cudaGetLastError());
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
    rep.host_register_error = pinned.failure();
    rep.host_register = config.host_register && rep.host_register_error.empty();

    // The tables (the root's powers, the coset shift's) are built and allocated before the timed region.
    const bool forward = direction == ntt_direction::forward, coset = domain == ntt_domain::coset;
    const fr g = fr::generator();
    const fr root = forward ? domain_root(lg_n) : domain_root(lg_n).inverse();
    const fr shift = forward ? g : g.inverse();
    const fr n_inv = fr::from_u64(n).inverse();
    const stream s;
    device_buffer<fr> a(n);
    const device_powers w(root, lg_n);
    std::optional<device_powers> shift_powers;
    if (coset) shift_powers.emplace(shift, lg_n);
    t0 = clock_type::now();
    w.upload(s);
    if (coset) shift_powers->upload(s);
    ZK_CUDA_OK(cudaMemcpyAsync(a.get(), data, bytes, cudaMemcpyHostToDevice, s.get()));
    s.sync();
    rep.time.transfer_s += seconds_between(t0, clock_type::now());

    // Kernels only, between two events on their stream.
    event start, stop;
    start.record(s);
    if (forward) {
      if (coset) scale(a.get(), lg_n, fr::one(), &*shift_powers, s);
      transform(a.get(), lg_n, w, s);
    } else {
      transform(a.get(), lg_n, w, s);
      scale(a.get(), lg_n, n_inv, coset ? &*shift_powers : nullptr, s);
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
