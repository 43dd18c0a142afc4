// CUDA kernels of the G1 bucket-method MSM (the device side of variants/msm/pippenger.hpp): one thread
// per item, each running one step of gpu/msm/pippenger_steps.hpp (where the steps are documented).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec/curves.hpp"
#include "gpu/launch.cuh"
#include "gpu/msm/pippenger_steps.hpp"

namespace zk::gpu::msm_kernels {

using detail::threads_per_block;
using msm_steps::kernel_set;
using msm_steps::layout;
using msm_steps::reduce_block;
using msm_steps::reduction_plan;
using msm_steps::xyzz_of;

// counts[i] = point i's number of entries; counts[n] = 0, so the exclusive scan's last element is the total.
__global__ void __launch_bounds__(threads_per_block)
    count_digits(const uint64_t* scalars, uint32_t n, layout l, uint32_t* counts) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) counts[i] = msm_steps::digit_count(scalars + 4 * size_t{i}, l);
  else if (i == n) counts[n] = 0;
}

// Point i's entries at [at[i], at[i+1]).
__global__ void __launch_bounds__(threads_per_block)
    recode(const uint64_t* scalars, uint32_t n, layout l, const uint32_t* at, uint32_t* keys, uint32_t* values) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  msm_steps::recode_scalar(scalars + 4 * size_t{i}, i, l, keys + at[i], values + at[i]);
}

// off[k] = the first sorted entry of bucket k, for k = 0 … nkeys (off[nkeys] = nitems).
__global__ void __launch_bounds__(threads_per_block)
    bucket_starts(const uint32_t* sorted_keys, uint32_t nitems, uint32_t nkeys, uint32_t* off) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k <= nkeys) off[k] = static_cast<uint32_t>(msm_steps::lower_bound(sorted_keys, nitems, k));
}

// npieces[k] = bucket k's pieces at this level; npieces[nkeys] = 0 (for the scan's total).
__global__ void __launch_bounds__(threads_per_block) count_pieces(const uint32_t* off, uint32_t nkeys, uint32_t* npieces) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nkeys) npieces[k] = msm_steps::pieces_in(off[k + 1] - off[k]);
  else if (k == nkeys) npieces[nkeys] = 0;
}

// Level 0: piece p of the sorted entries → out[p].
template <kernel_set K>
__global__ void __launch_bounds__(threads_per_block)
    sum_point_pieces(const g1_affine* points, const uint32_t* sorted_values, const uint32_t* off, const uint32_t* poff,
                     uint32_t nkeys, uint32_t npieces, xyzz_of<K>* out) {
  const uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < npieces)
    out[p] = msm_steps::sum_points<K>(points, sorted_values, msm_steps::piece_at<K>(off, poff, nkeys, p));
}

// Later levels: piece p of the previous level's sums → out[p].
template <kernel_set K>
__global__ void __launch_bounds__(threads_per_block)
    sum_partial_pieces(const xyzz_of<K>* in, const uint32_t* off, const uint32_t* poff, uint32_t nkeys, uint32_t npieces,
                       xyzz_of<K>* out) {
  const uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < npieces) out[p] = msm_steps::sum_partials(in, msm_steps::piece_at<K>(off, poff, nkeys, p));
}

template <class X>
__global__ void __launch_bounds__(threads_per_block)
    gather_buckets(const X* partials, const uint32_t* off, uint32_t nkeys, X* buckets) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nkeys) buckets[k] = msm_steps::bucket_value(partials, off, k);
}

// first_run: one thread per (window, segment), then one thread per window over its segments.
template <class X>
__global__ void __launch_bounds__(threads_per_block)
    segment_sums(const X* buckets, layout l, reduction_plan r, X* partial) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < l.nwins * r.nseg) partial[t] = msm_steps::segment_sum(buckets, l, r, t);
}

template <class X>
__global__ void __launch_bounds__(threads_per_block) window_sums(const X* partial, uint32_t nwins, reduction_plan r, X* out) {
  const uint32_t w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < nwins) out[w] = msm_steps::window_sum(partial, r, w);
}

// tuned: the block's values summed in shared memory by tree_step (n = reduce_block, a power of two).
template <class X>
__device__ X block_tree_sum(X* shared, X value) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (uint32_t stride = reduce_block / 2; stride > 0; stride /= 2) {
    msm_steps::tree_step(shared, threadIdx.x, stride);
    __syncthreads();
  }
  return shared[0];
}

// tuned: block b = w·nblk + j, reduce_block threads: each thread one segment's sum (segment_sum's
// two steps, its weighted sum in the thread's shared slot), then the block's tree → block_sums[b].
template <class X>
__global__ void __launch_bounds__(reduce_block)
    segment_block_sums(const X* buckets, layout l, reduction_plan r, X* block_sums) {
  __shared__ X shared[reduce_block];
  const uint32_t t = msm_steps::segment_of(r, blockIdx.x, threadIdx.x);
  const X total = msm_steps::segment_running_sums(buckets, l, r, t, shared[threadIdx.x]);
  const X sum = block_tree_sum(shared, msm_steps::segment_value(shared[threadIdx.x], total, msm_steps::segment_lo(r, t)));
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

// tuned: block w sums window w's nblk block sums (≤ reduce_block) in a tree → out[w].
template <class X>
__global__ void __launch_bounds__(reduce_block) window_tree_sums(const X* block_sums, reduction_plan r, X* out) {
  __shared__ X shared[reduce_block];
  const X mine = threadIdx.x < r.nblk ? block_sums[size_t{blockIdx.x} * r.nblk + threadIdx.x] : X::identity();
  const X sum = block_tree_sum(shared, mine);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

}  // namespace zk::gpu::msm_kernels
