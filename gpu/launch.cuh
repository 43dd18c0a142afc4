// Launch geometry shared by the kernel files (MSM, NTT, field): the block size, the grid for n threads.
#pragma once

#include <cstddef>

namespace zk::gpu::detail {

// Threads per block of the one-thread-per-item kernels; their __launch_bounds__ name it, so ptxas
// may budget registers for this block size and no larger (255 a thread at most: 65536 / 256).
constexpr unsigned threads_per_block = 256;

// Blocks of `block` threads that cover n threads (the last one partly idle).
inline unsigned nblocks(size_t n, unsigned block = threads_per_block) {
  return static_cast<unsigned>((n + block - 1) / block);
}

}  // namespace zk::gpu::detail
