// CUDA kernels of the radix-2 Fr NTT: bit reversal, butterfly stages (the first ones in shared
// memory), and scaling by powers — each thread one step of gpu/ntt/ntt_steps.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/fr.hpp"
#include "gpu/launch.cuh"
#include "gpu/ntt/ntt_steps.hpp"

namespace zk::gpu::ntt_kernels {

using ntt_steps::lg_tile_max;
using ntt_steps::power_table;

__global__ void __launch_bounds__(detail::threads_per_block) bit_reverse(fr* a, unsigned lg_n) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >> lg_n) return;
  ntt_steps::bit_reverse_pair(a, i, lg_n);
}

// Stages lg_m = 0 … lg_tile−1 on tiles of 2^lg_tile consecutive elements, one tile per block of
// 2^(lg_tile−1) threads: after bit reversal those stages never cross a tile, and a tile's
// butterfly b has the twiddle of the whole array's butterfly b (it depends on b mod m only).
__global__ void __launch_bounds__(1u << (lg_tile_max - 1)) shared_stages(fr* a, unsigned lg_tile, unsigned lg_n, power_table w) {
  __shared__ uint64_t raw[(size_t{1} << lg_tile_max) * 4];
  fr* tile = reinterpret_cast<fr*>(raw);
  const size_t tile_size = size_t{1} << lg_tile;
  fr* g = a + blockIdx.x * tile_size;
  for (size_t i = threadIdx.x; i < tile_size; i += blockDim.x) tile[i] = g[i];
  for (unsigned lg_m = 0; lg_m < lg_tile; ++lg_m) {
    __syncthreads();
    ntt_steps::butterfly(tile, threadIdx.x, lg_m, lg_n, w);
  }
  __syncthreads();
  for (size_t i = threadIdx.x; i < tile_size; i += blockDim.x) g[i] = tile[i];
}

// One stage from global memory, one thread per butterfly.
__global__ void __launch_bounds__(detail::threads_per_block) global_stage(fr* a, unsigned lg_m, unsigned lg_n, power_table w) {
  const size_t b = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (b >> (lg_n - 1)) return;
  ntt_steps::butterfly(a, b, lg_m, lg_n, w);
}

__global__ void __launch_bounds__(detail::threads_per_block) scale(fr* a, unsigned lg_n, fr c, power_table s, bool with_powers) {
  const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
  if (i >> lg_n) return;
  ntt_steps::scale_one(a, i, c, s, with_powers);
}

}  // namespace zk::gpu::ntt_kernels
