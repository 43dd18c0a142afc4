// The host-to-device copy schedule of one GPU call, as data: which bytes, on which copy stream,
// through which staging buffer, and what must finish before each chunk may start — pippenger.cu
// follows it, tests/gpu/copy_plan_test.cpp checks it on the CPU (no device needed).
//
// cuzk's shape: copies run on their own stream, in chunks, double-buffered against the kernels.
// Arrays are copied in the order given (the MSM: scalars, then points); a chunk holds whole elements.
// Pageable host memory (B1 off) goes through `nslots` pinned staging buffers used in turn: the host
// refills slot s only after the copy out of it — chunk `reuse_after` — has finished. Registered
// memory (B1 on) is copied straight from the host array; the slots are then unused.
//
//   const copy_plan plan = plan_copies({{scalar_bytes, 32}, {point_bytes, 96}}, 8 << 20, 2);
//   for (const copy_chunk& ch : plan.chunks) { /* wait reuse_after, stage, copy on stream ch.stream */ }
//   // the consumer of array a waits for chunk plan.last_chunk[a]
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace zk::gpu {

// One array to copy: its size and the size of one element (chunks never split an element).
struct copy_array {
  size_t bytes = 0;
  size_t element_bytes = 1;
};

struct copy_chunk {
  size_t array = 0;                   // index into the arrays given
  size_t offset = 0, bytes = 0;       // bytes [offset, offset + bytes) of that array
  unsigned stream = 0;                // copy stream (0 … nstreams − 1)
  unsigned slot = 0;                  // staging buffer (0 … nslots − 1)
  std::optional<size_t> reuse_after;  // the earlier chunk whose copy out of `slot` must have finished
};

struct copy_plan {
  std::vector<copy_chunk> chunks;
  std::vector<std::optional<size_t>> last_chunk;  // per array: its last chunk (none for an empty array)
  size_t chunk_bytes = 0;                         // the staging buffers' size
};

// Throws std::invalid_argument for chunk_bytes smaller than an element, nslots or nstreams of 0,
// or an array whose size is not a whole number of elements.
copy_plan plan_copies(const std::vector<copy_array>& arrays, size_t chunk_bytes, unsigned nslots = 2,
                      unsigned nstreams = 1);

}  // namespace zk::gpu
