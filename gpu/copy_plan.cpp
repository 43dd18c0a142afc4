// plan_copies: chunks of whole elements, slots and streams in turn, each slot reused after its last copy.
#include "gpu/copy_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace zk::gpu {

copy_plan plan_copies(const std::vector<copy_array>& arrays, size_t chunk_bytes, unsigned nslots, unsigned nstreams) {
  if (nslots == 0 || nstreams == 0)
    throw std::invalid_argument("error: copy plan with no staging slot or no stream — pass at least one of each");
  copy_plan plan;
  plan.last_chunk.assign(arrays.size(), std::nullopt);
  std::vector<std::optional<size_t>> last_in_slot(nslots);
  for (size_t a = 0; a < arrays.size(); ++a) {
    const copy_array& arr = arrays[a];
    if (arr.element_bytes == 0 || arr.bytes % arr.element_bytes != 0)
      throw std::invalid_argument("error: copy plan array " + std::to_string(a) + " of " + std::to_string(arr.bytes) +
                                  " bytes is not whole elements of " + std::to_string(arr.element_bytes) +
                                  " — give its element size");
    const size_t per_chunk = chunk_bytes / arr.element_bytes * arr.element_bytes;
    if (per_chunk == 0)
      throw std::invalid_argument("error: copy chunks of " + std::to_string(chunk_bytes) + " bytes hold no element of " +
                                  std::to_string(arr.element_bytes) + " — use larger chunks");
    for (size_t off = 0; off < arr.bytes; off += per_chunk) {
      const size_t k = plan.chunks.size();
      const auto slot = static_cast<unsigned>(k % nslots);
      plan.chunks.push_back({a, off, std::min(per_chunk, arr.bytes - off), static_cast<unsigned>(k % nstreams), slot,
                             last_in_slot[slot]});
      last_in_slot[slot] = k;
      plan.last_chunk[a] = k;
      plan.chunk_bytes = std::max(plan.chunk_bytes, plan.chunks.back().bytes);
    }
  }
  return plan;
}

}  // namespace zk::gpu
