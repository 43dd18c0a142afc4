// zk::gpu::msm_g1: the G1 bucket-method MSM on the device, with B1 registration, D4 windows and timings.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <bit>
#include <chrono>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gpu/api.hpp"
#include "gpu/cuda_ok.cuh"
#include "gpu/device.cuh"
#include "gpu/device_memory.cuh"
#include "gpu/msm/pippenger.cuh"
#include "gpu/msm/pippenger_steps.hpp"

namespace zk::gpu {
namespace {

using namespace detail;
using clock_type = std::chrono::steady_clock;
constexpr unsigned threads_per_block = 256;

unsigned nblocks(size_t nthreads) { return static_cast<unsigned>((nthreads + threads_per_block - 1) / threads_per_block); }

// Reads one uint32 the device wrote (a scan's total) once the stream reaches it.
uint32_t read_back(const uint32_t* device_value, const stream& s) {
  uint32_t v = 0;
  ZK_CUDA_OK(cudaMemcpyAsync(&v, device_value, sizeof v, cudaMemcpyDeviceToHost, s.get()));
  s.sync();
  return v;
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
    const msm_steps::layout l = msm_steps::make_layout(c);
    rep.wbits = c;
    rep.nwins = l.nwins;
    if (n == 0) {
      *out = g1_jacobian::identity();
      if (report) *report = rep;
      return;
    }
    const size_t max_items = size_t{l.nwins} * n;  // every digit nonzero
    if (n >= (size_t{1} << 31) || max_items >= (size_t{1} << 31))
      throw std::invalid_argument("gpu msm: windows × points must stay below 2^31 — use a larger wbits or split the MSM");

    auto t0 = clock_type::now();
    host_registration pinned_points(points.data(), points.size_bytes(), config.host_register);
    host_registration pinned_scalars(scalars.data(), scalars.size_bytes(), config.host_register);
    rep.time.host_register_s += seconds_between(t0, clock_type::now());
    rep.host_register_error = !pinned_points.failure().empty() ? pinned_points.failure() : pinned_scalars.failure();
    rep.host_register = config.host_register && rep.host_register_error.empty();

    // Every buffer is sized for the worst case and allocated before the timed region.
    const stream s;
    const uint32_t nkeys = l.nkeys();
    const msm_steps::reduction_plan plan = msm_steps::plan_reduction(l);
    const size_t max_pieces = msm_steps::max_pieces(max_items, nkeys);
    device_buffer<g1_affine> d_points(n);
    device_buffer<uint64_t> d_scalars(4 * n);
    device_buffer<uint32_t> counts(n + 1), at(n + 1);
    device_buffer<uint32_t> keys(max_items), values(max_items), sorted_keys(max_items), sorted_values(max_items);
    device_buffer<uint32_t> off_a(size_t{nkeys} + 1), off_b(size_t{nkeys} + 1), npieces(size_t{nkeys} + 1);
    device_buffer<g1_xyzz> sums_a(max_pieces), sums_b(max_pieces), buckets(nkeys);
    device_buffer<g1_xyzz> partial(size_t{l.nwins} * plan.nseg), windows(l.nwins);
    const int end_bit = std::max(1, static_cast<int>(std::bit_width(nkeys - 1)));
    size_t sort_bytes = 0, scan_items_bytes = 0, scan_keys_bytes = 0;
    ZK_CUDA_OK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys.get(), sorted_keys.get(), values.get(),
                                               sorted_values.get(), static_cast<int>(max_items), 0, end_bit, s.get()));
    ZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(nullptr, scan_items_bytes, counts.get(), at.get(), static_cast<int>(n + 1),
                                             s.get()));
    ZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(nullptr, scan_keys_bytes, npieces.get(), off_b.get(),
                                             static_cast<int>(nkeys + 1), s.get()));
    size_t temp_bytes = std::max({sort_bytes, scan_items_bytes, scan_keys_bytes});
    device_buffer<unsigned char> temp(temp_bytes);

    t0 = clock_type::now();
    ZK_CUDA_OK(cudaMemcpyAsync(d_points.get(), points.data(), points.size_bytes(), cudaMemcpyHostToDevice, s.get()));
    ZK_CUDA_OK(cudaMemcpyAsync(d_scalars.get(), scalars.data(), scalars.size_bytes(), cudaMemcpyHostToDevice, s.get()));
    s.sync();
    rep.time.transfer_s += seconds_between(t0, clock_type::now());

    // The timed region holds only kernels, and three 4-byte reads of a scan's total that size the
    // next launch (the host waits there; the GPU idles for a few microseconds).
    std::vector<g1_xyzz> host_windows(l.nwins, g1_xyzz::identity());
    event begin, end;
    begin.record(s);
    msm_kernels::count_digits<<<nblocks(n + 1), threads_per_block, 0, s.get()>>>(d_scalars.get(), static_cast<uint32_t>(n),
                                                                                l, counts.get());
    ZK_CUDA_OK(cudaGetLastError());
    ZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(temp.get(), temp_bytes, counts.get(), at.get(), static_cast<int>(n + 1),
                                             s.get()));
    const uint32_t nitems = read_back(at.get() + n, s);
    rep.nentries = nitems;
    if (nitems > 0) {  // else every scalar is zero: every window sum is the identity
      msm_kernels::recode<<<nblocks(n), threads_per_block, 0, s.get()>>>(d_scalars.get(), static_cast<uint32_t>(n), l,
                                                                        at.get(), keys.get(), values.get());
      ZK_CUDA_OK(cudaGetLastError());
      ZK_CUDA_OK(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, keys.get(), sorted_keys.get(), values.get(),
                                                 sorted_values.get(), static_cast<int>(nitems), 0, end_bit, s.get()));
      msm_kernels::bucket_starts<<<nblocks(size_t{nkeys} + 1), threads_per_block, 0, s.get()>>>(
          sorted_keys.get(), nitems, nkeys, off_a.get());
      ZK_CUDA_OK(cudaGetLastError());

      // Levels of pieces until every bucket holds at most one entry (pippenger_steps.hpp).
      uint32_t *off = off_a.get(), *next_off = off_b.get();
      g1_xyzz *sums = sums_a.get(), *next_sums = sums_b.get();
      uint32_t entries = nitems;
      for (unsigned level = 0;; ++level) {
        msm_kernels::count_pieces<<<nblocks(size_t{nkeys} + 1), threads_per_block, 0, s.get()>>>(off, nkeys,
                                                                                                npieces.get());
        ZK_CUDA_OK(cudaGetLastError());
        ZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(temp.get(), temp_bytes, npieces.get(), next_off,
                                                 static_cast<int>(nkeys + 1), s.get()));
        const uint32_t pieces = read_back(next_off + nkeys, s);
        if (level > 0 && pieces == entries) break;  // one piece per entry: no bucket has two
        if (level == 0)
          msm_kernels::sum_point_pieces<<<nblocks(pieces), threads_per_block, 0, s.get()>>>(
              d_points.get(), sorted_values.get(), off, next_off, nkeys, pieces, next_sums);
        else
          msm_kernels::sum_partial_pieces<<<nblocks(pieces), threads_per_block, 0, s.get()>>>(sums, off, next_off, nkeys,
                                                                                            pieces, next_sums);
        ZK_CUDA_OK(cudaGetLastError());
        std::swap(off, next_off);
        std::swap(sums, next_sums);
        entries = pieces;
        rep.levels = level + 1;
      }
      msm_kernels::gather_buckets<<<nblocks(nkeys), threads_per_block, 0, s.get()>>>(sums, off, nkeys, buckets.get());
      ZK_CUDA_OK(cudaGetLastError());
      msm_kernels::segment_sums<<<nblocks(size_t{l.nwins} * plan.nseg), threads_per_block, 0, s.get()>>>(
          buckets.get(), l, plan, partial.get());
      ZK_CUDA_OK(cudaGetLastError());
      msm_kernels::window_sums<<<nblocks(l.nwins), threads_per_block, 0, s.get()>>>(partial.get(), l.nwins, plan,
                                                                                   windows.get());
      ZK_CUDA_OK(cudaGetLastError());
    }
    end.record(s);
    rep.time.kernel_s = end.seconds_since(begin);

    if (nitems > 0) {
      t0 = clock_type::now();
      ZK_CUDA_OK(cudaMemcpyAsync(host_windows.data(), windows.get(), l.nwins * sizeof(g1_xyzz), cudaMemcpyDeviceToHost,
                                 s.get()));
      s.sync();
      rep.time.transfer_s += seconds_between(t0, clock_type::now());
    }

    t0 = clock_type::now();
    pinned_scalars.release();
    pinned_points.release();
    rep.time.host_register_s += seconds_between(t0, clock_type::now());

    *out = msm_steps::horner(host_windows, c);
    if (report) *report = rep;
  });
}

}  // namespace zk::gpu
