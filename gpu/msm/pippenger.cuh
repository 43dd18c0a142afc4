// CUDA kernels of the G1 bucket-method MSM (the device side of variants/msm/pippenger.hpp): signed
// digits, points sorted by bucket (cub::DeviceRadixSort), one thread per bucket, segmented window sums.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec/curves.hpp"
#include "ff/fr.hpp"

namespace zk::gpu::msm_kernels {

// Digit encoding of one (window, point) pair after recoding: key = window·nbuckets + |digit| − 1
// (the sort key), value = point index << 1 | sign. A zero digit gets key `skip` = nwins·nbuckets,
// which sorts after every bucket.
struct layout {
  unsigned c, nwins;
  uint32_t nbuckets;  // 2^(c−1), the digits' magnitudes 1…2^(c−1)
  __host__ __device__ uint32_t skip() const { return nwins * nbuckets; }
};

__device__ inline uint64_t window_bits_at(const uint64_t* k, unsigned bit, unsigned c) {
  const unsigned limb = bit / 64, shift = bit % 64;
  if (limb >= 4) return 0;
  uint64_t v = k[limb] >> shift;
  if (shift + c > 64 && limb + 1 < 4) v |= k[limb + 1] << (64 - shift);
  return v & ((uint64_t{1} << c) - 1);
}

// One thread per scalar: signed base-2^c digits with the carry of pippenger.hpp's `recode`
// (a window value above 2^(c−1) becomes v − 2^c and carries one into the next window).
__global__ void recode(const uint64_t* scalars, uint32_t n, layout l, uint32_t* keys, uint32_t* values) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t k[4];
  for (int j = 0; j < 4; ++j) k[j] = scalars[4 * size_t{i} + j];
  const uint64_t half = uint64_t{1} << (l.c - 1);
  uint64_t carry = 0;
  for (unsigned w = 0; w < l.nwins; ++w) {
    const uint64_t v = window_bits_at(k, w * l.c, l.c) + carry;
    carry = v > half;
    const uint64_t mag = carry ? (uint64_t{1} << l.c) - v : v;  // v = 2^c leaves digit 0
    const size_t at = size_t{w} * n + i;
    keys[at] = mag == 0 ? l.skip() : w * l.nbuckets + static_cast<uint32_t>(mag - 1);
    values[at] = i << 1 | static_cast<uint32_t>(carry & (mag != 0));
  }
}

// start[k] = the first position of key k in the sorted keys (lower bound), for k = 0 … skip; so
// bucket k's entries are [start[k], start[k+1]).
__global__ void bucket_starts(const uint32_t* sorted_keys, size_t nitems, uint32_t nkeys, uint32_t* start) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k > nkeys) return;
  size_t lo = 0, hi = nitems;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (sorted_keys[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  start[k] = static_cast<uint32_t>(lo);
}

// One thread per bucket: the sum of its points, negated where the digit was negative (XYZZ
// mixed additions, madd-2008-s). Uniform random scalars give every bucket ≈ n/2^(c−1) points.
__global__ void accumulate(const g1_affine* points, const uint32_t* sorted_values, const uint32_t* start,
                           uint32_t nkeys, g1_xyzz* buckets) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nkeys) return;
  g1_xyzz acc = g1_xyzz::identity();
  for (uint32_t e = start[k]; e < start[k + 1]; ++e) {
    const uint32_t v = sorted_values[e];
    const g1_affine& p = points[v >> 1];
    if (v & 1) acc -= p;
    else acc += p;
  }
  buckets[k] = acc;
}

// k·p for a small k by double-and-add.
__device__ inline g1_xyzz mul_small(const g1_xyzz& p, uint32_t k) {
  g1_xyzz r = g1_xyzz::identity();
  for (int bit = 31; bit >= 0; --bit) {
    r = r.dbl();
    if ((k >> bit) & 1) r += p;
  }
  return r;
}

// Window w's Σ (b+1)·bucket_b in nseg segments of `seg` buckets, one thread per (window, segment):
// over [lo, hi) the running-sum trick gives Σ (b−lo+1)·bucket_b and Σ bucket_b, and
// Σ (b+1)·bucket_b = Σ (b−lo+1)·bucket_b + lo·Σ bucket_b.
__global__ void segment_sums(const g1_xyzz* buckets, layout l, uint32_t nseg, uint32_t seg,
                             g1_xyzz* partial) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= l.nwins * nseg) return;
  const uint32_t w = t / nseg, s = t % nseg;
  const uint32_t lo = s * seg, hi = min(l.nbuckets, lo + seg);
  const g1_xyzz* b = buckets + size_t{w} * l.nbuckets;
  g1_xyzz running = g1_xyzz::identity(), acc = g1_xyzz::identity();
  for (uint32_t j = hi; j-- > lo;) {
    running += b[j];
    acc += running;
  }
  partial[t] = lo == 0 || lo >= hi ? acc : acc + mul_small(running, lo);
}

// One thread per window: the sum of its segments.
__global__ void window_sums(const g1_xyzz* partial, uint32_t nwins, uint32_t nseg, g1_xyzz* out) {
  const uint32_t w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= nwins) return;
  g1_xyzz acc = g1_xyzz::identity();
  for (uint32_t s = 0; s < nseg; ++s) acc += partial[size_t{w} * nseg + s];
  out[w] = acc;
}

}  // namespace zk::gpu::msm_kernels
