// zk::gpu::msm_g1: the G1 bucket-method MSM on the device, with B1 registration, D4 windows and timings.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "gpu/api.hpp"
#include "gpu/cuda_ok.cuh"
#include "gpu/device.cuh"
#include "gpu/device_memory.cuh"
#include "gpu/msm/pippenger.cuh"
#include "msm/pippenger.hpp"

namespace zk::gpu {
namespace {

using namespace detail;
using clock_type = std::chrono::steady_clock;
constexpr unsigned threads_per_block = 256;
// Threads the reduction aims for: enough segments to fill the device without a long host tail.
constexpr uint32_t reduction_threads = 1u << 14;

unsigned nblocks(size_t nthreads) { return static_cast<unsigned>((nthreads + threads_per_block - 1) / threads_per_block); }

// Σ over the windows by Horner, top first: acc = 2^c·acc + Wⱼ (as pippenger.hpp).
g1_jacobian horner(const std::vector<g1_xyzz>& windows, unsigned c) {
  g1_jacobian acc = g1_jacobian::identity();
  for (size_t w = windows.size(); w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    acc += windows[w].to_jacobian();
  }
  return acc;
}

}  // namespace

status msm_g1(std::span<const g1_affine> points, std::span<const scalar_t> scalars, const msm_config& config,
              g1_jacobian* out, msm_report* report) {
  if (const status st = probe_device(); !st.ok()) return st;
  return guarded([&] {
    if (points.size() != scalars.size()) throw std::invalid_argument("gpu msm: points and scalars differ in length");
    if (out == nullptr) throw std::invalid_argument("gpu msm: out is null");
    const size_t n = points.size();
    msm_report rep;
    rep.host_register = config.host_register;
    const unsigned c = resolve_wbits(config, n);
    if (c < 1 || c > 20) throw std::invalid_argument("gpu msm: wbits outside 1…20");
    const msm_kernels::layout l{c, zk::detail::msm_nwins(c), uint32_t{1} << (c - 1)};
    rep.wbits = c;
    rep.nwins = l.nwins;
    if (n == 0) {
      *out = g1_jacobian::identity();
      if (report) *report = rep;
      return;
    }
    const size_t nitems = size_t{l.nwins} * n;
    if (n >= (size_t{1} << 31) || nitems >= (size_t{1} << 31))
      throw std::invalid_argument("gpu msm: windows × points must stay below 2^31 — use a larger wbits or split the MSM");

    auto t0 = clock_type::now();
    host_registration pinned_points(points.data(), points.size_bytes(), config.host_register);
    host_registration pinned_scalars(scalars.data(), scalars.size_bytes(), config.host_register);
    rep.time.host_register_s += seconds_between(t0, clock_type::now());

    const stream s;
    device_buffer<g1_affine> d_points(n);
    device_buffer<uint64_t> d_scalars(4 * n);
    t0 = clock_type::now();
    ZK_CUDA_OK(cudaMemcpyAsync(d_points.get(), points.data(), points.size_bytes(), cudaMemcpyHostToDevice, s.get()));
    ZK_CUDA_OK(cudaMemcpyAsync(d_scalars.get(), scalars.data(), scalars.size_bytes(), cudaMemcpyHostToDevice, s.get()));
    s.sync();
    rep.time.transfer_s += seconds_between(t0, clock_type::now());

    const uint32_t nkeys = l.skip();
    device_buffer<uint32_t> keys(nitems), values(nitems), sorted_keys(nitems), sorted_values(nitems);
    device_buffer<uint32_t> start(size_t{nkeys} + 1);
    device_buffer<g1_xyzz> buckets(nkeys);
    const uint32_t nseg = std::clamp<uint32_t>(reduction_threads / l.nwins, 1, l.nbuckets);
    const uint32_t seg = (l.nbuckets + nseg - 1) / nseg;
    device_buffer<g1_xyzz> partial(size_t{l.nwins} * nseg), windows(l.nwins);
    const int end_bit = std::bit_width(nkeys);
    size_t temp_bytes = 0;
    ZK_CUDA_OK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.get(), sorted_keys.get(), values.get(),
                                               sorted_values.get(), static_cast<int>(nitems), 0, end_bit, s.get()));
    device_buffer<unsigned char> temp(temp_bytes);

    event begin, end;
    begin.record(s);
    msm_kernels::recode<<<nblocks(n), threads_per_block, 0, s.get()>>>(d_scalars.get(), static_cast<uint32_t>(n), l,
                                                                      keys.get(), values.get());
    ZK_CUDA_OK(cudaGetLastError());
    ZK_CUDA_OK(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, keys.get(), sorted_keys.get(), values.get(),
                                               sorted_values.get(), static_cast<int>(nitems), 0, end_bit, s.get()));
    msm_kernels::bucket_starts<<<nblocks(size_t{nkeys} + 1), threads_per_block, 0, s.get()>>>(
        sorted_keys.get(), nitems, nkeys, start.get());
    ZK_CUDA_OK(cudaGetLastError());
    msm_kernels::accumulate<<<nblocks(nkeys), threads_per_block, 0, s.get()>>>(d_points.get(), sorted_values.get(),
                                                                              start.get(), nkeys, buckets.get());
    ZK_CUDA_OK(cudaGetLastError());
    msm_kernels::segment_sums<<<nblocks(size_t{l.nwins} * nseg), threads_per_block, 0, s.get()>>>(
        buckets.get(), l, nseg, seg, partial.get());
    ZK_CUDA_OK(cudaGetLastError());
    msm_kernels::window_sums<<<nblocks(l.nwins), threads_per_block, 0, s.get()>>>(partial.get(), l.nwins, nseg,
                                                                                 windows.get());
    ZK_CUDA_OK(cudaGetLastError());
    end.record(s);
    rep.time.kernel_s = end.seconds_since(begin);

    std::vector<g1_xyzz> host_windows(l.nwins);
    t0 = clock_type::now();
    ZK_CUDA_OK(cudaMemcpyAsync(host_windows.data(), windows.get(), l.nwins * sizeof(g1_xyzz), cudaMemcpyDeviceToHost,
                               s.get()));
    s.sync();
    rep.time.transfer_s += seconds_between(t0, clock_type::now());

    t0 = clock_type::now();
    pinned_scalars.release();
    pinned_points.release();
    rep.time.host_register_s += seconds_between(t0, clock_type::now());

    *out = horner(host_windows, c);
    if (report) *report = rep;
  });
}

}  // namespace zk::gpu
