// CUDA kernels of the radix-2 Fr NTT: bit reversal, butterfly stages (the first ones in shared
// memory), and scaling by powers — the steps of variants/ntt/ntt.cpp, on the device.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec/curves.hpp"
#include "ff/fr.hpp"

namespace zk::gpu::ntt_kernels {

// x^k for k < lo_size·hi_size as lo[k mod lo_size]·hi[k / lo_size], lo[i] = x^i, hi[j] = x^(lo_size·j):
// two small host-built tables and one multiplication instead of an n/2-entry twiddle table.
constexpr unsigned lg_lo_size = 10;
struct power_table {
  const fr* lo;
  const fr* hi;
  __device__ fr operator()(size_t k) const {
    return lo[k & ((size_t{1} << lg_lo_size) - 1)] * hi[k >> lg_lo_size];
  }
};

// Elements per block in the shared-memory stages: 1024 × 32 B = 32 KiB, under the 48 KiB static limit.
constexpr unsigned lg_tile_max = 10;

// a[i] ↔ a[bitrev(i)], each pair swapped once (by its smaller index).
__global__ void bit_reverse(fr* a, unsigned lg_n) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >> lg_n) return;
  const size_t j = __brevll(i) >> (64 - lg_n);
  if (i < j) {
    const fr t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

// One Cooley–Tukey butterfly of the stage with half-span m = 2^lg_m (as ntt.cpp's `transform`):
// b indexes the n/2 butterflies; twiddle ω^(j·n/2m).
__device__ inline void butterfly(fr* a, size_t b, unsigned lg_m, unsigned lg_n, const power_table& w) {
  const size_t m = size_t{1} << lg_m;
  const size_t j = b & (m - 1);
  const size_t i0 = ((b >> lg_m) << (lg_m + 1)) + j, i1 = i0 + m;
  const fr v = a[i1] * w(j << (lg_n - 1 - lg_m));
  a[i1] = a[i0] - v;
  a[i0] = a[i0] + v;
}

// Stages lg_m = 0 … lg_tile−1 on tiles of 2^lg_tile consecutive elements, one tile per block of
// 2^(lg_tile−1) threads: after bit reversal those stages never cross a tile.
__global__ void shared_stages(fr* a, unsigned lg_tile, unsigned lg_n, power_table w) {
  __shared__ uint64_t raw[(size_t{1} << lg_tile_max) * 4];
  fr* tile = reinterpret_cast<fr*>(raw);
  const size_t tile_size = size_t{1} << lg_tile;
  fr* g = a + blockIdx.x * tile_size;
  for (size_t i = threadIdx.x; i < tile_size; i += blockDim.x) tile[i] = g[i];
  for (unsigned lg_m = 0; lg_m < lg_tile; ++lg_m) {
    __syncthreads();
    butterfly(tile, threadIdx.x, lg_m, lg_n, w);
  }
  __syncthreads();
  for (size_t i = threadIdx.x; i < tile_size; i += blockDim.x) g[i] = tile[i];
}

// One stage from global memory, one thread per butterfly.
__global__ void global_stage(fr* a, unsigned lg_m, unsigned lg_n, power_table w) {
  const size_t b = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (b >> (lg_n - 1)) return;
  butterfly(a, b, lg_m, lg_n, w);
}

// a[i] *= c·s^i (with_powers) or a[i] *= c.
__global__ void scale(fr* a, unsigned lg_n, fr c, power_table s, bool with_powers) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >> lg_n) return;
  a[i] = with_powers ? a[i] * (c * s(i)) : a[i] * c;
}

}  // namespace zk::gpu::ntt_kernels
