// CUDA kernels of the G1 bucket-method MSM (the device side of variants/msm/pippenger.hpp): one thread
// per item, each running one step of gpu/msm/pippenger_steps.hpp (where the steps are documented).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec/curves.hpp"
#include "gpu/msm/pippenger_steps.hpp"

namespace zk::gpu::msm_kernels {

using msm_steps::layout;
using msm_steps::reduction_plan;

// counts[i] = point i's number of entries; counts[n] = 0, so the exclusive scan's last element is the total.
__global__ void count_digits(const uint64_t* scalars, uint32_t n, layout l, uint32_t* counts) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) counts[i] = msm_steps::digit_count(scalars + 4 * size_t{i}, l);
  else if (i == n) counts[n] = 0;
}

// Point i's entries at [at[i], at[i+1]).
__global__ void recode(const uint64_t* scalars, uint32_t n, layout l, const uint32_t* at, uint32_t* keys,
                       uint32_t* values) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  msm_steps::recode_scalar(scalars + 4 * size_t{i}, i, l, keys + at[i], values + at[i]);
}

// off[k] = the first sorted entry of bucket k, for k = 0 … nkeys (off[nkeys] = nitems).
__global__ void bucket_starts(const uint32_t* sorted_keys, uint32_t nitems, uint32_t nkeys, uint32_t* off) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k <= nkeys) off[k] = static_cast<uint32_t>(msm_steps::lower_bound(sorted_keys, nitems, k));
}

// npieces[k] = bucket k's pieces at this level; npieces[nkeys] = 0 (for the scan's total).
__global__ void count_pieces(const uint32_t* off, uint32_t nkeys, uint32_t* npieces) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nkeys) npieces[k] = msm_steps::pieces_in(off[k + 1] - off[k]);
  else if (k == nkeys) npieces[nkeys] = 0;
}

// Level 0: piece p of the sorted entries → out[p].
__global__ void sum_point_pieces(const g1_affine* points, const uint32_t* sorted_values, const uint32_t* off,
                                 const uint32_t* poff, uint32_t nkeys, uint32_t npieces, g1_xyzz* out) {
  const uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < npieces) out[p] = msm_steps::sum_points(points, sorted_values, msm_steps::piece_at(off, poff, nkeys, p));
}

// Later levels: piece p of the previous level's sums → out[p].
__global__ void sum_partial_pieces(const g1_xyzz* in, const uint32_t* off, const uint32_t* poff, uint32_t nkeys,
                                   uint32_t npieces, g1_xyzz* out) {
  const uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < npieces) out[p] = msm_steps::sum_partials(in, msm_steps::piece_at(off, poff, nkeys, p));
}

__global__ void gather_buckets(const g1_xyzz* partials, const uint32_t* off, uint32_t nkeys, g1_xyzz* buckets) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nkeys) buckets[k] = msm_steps::bucket_value(partials, off, k);
}

__global__ void segment_sums(const g1_xyzz* buckets, layout l, reduction_plan r, g1_xyzz* partial) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < l.nwins * r.nseg) partial[t] = msm_steps::segment_sum(buckets, l, r, t);
}

__global__ void window_sums(const g1_xyzz* partial, uint32_t nwins, reduction_plan r, g1_xyzz* out) {
  const uint32_t w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < nwins) out[w] = msm_steps::window_sum(partial, r, w);
}

}  // namespace zk::gpu::msm_kernels
