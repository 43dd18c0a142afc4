// The pipelined copy schedule (gpu/copy_plan.hpp) on the CPU: every byte of every array moved exactly
// once and in whole elements, staging slots and streams in turn, no slot refilled before the copy out
// of it finished, each array's consumer gated on its last chunk.
#include "gpu/copy_plan.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace zk::gpu {
namespace {

// Replays the plan on byte maps: each chunk marks its bytes; a slot's bytes belong to one chunk at a
// time, and its refill must name the chunk that held it.
void check_plan(const std::vector<copy_array>& arrays, size_t chunk_bytes, unsigned nslots, unsigned nstreams) {
  const copy_plan plan = plan_copies(arrays, chunk_bytes, nslots, nstreams);
  std::vector<std::vector<int>> moved(arrays.size());
  for (size_t a = 0; a < arrays.size(); ++a) moved[a].assign(arrays[a].bytes, 0);
  std::vector<std::optional<size_t>> holder(nslots);
  size_t previous_array = 0;
  for (size_t k = 0; k < plan.chunks.size(); ++k) {
    const copy_chunk& ch = plan.chunks[k];
    ASSERT_LT(ch.array, arrays.size());
    EXPECT_GE(ch.array, previous_array) << "arrays are copied in the order given";
    previous_array = ch.array;
    EXPECT_GT(ch.bytes, 0u);
    EXPECT_LE(ch.bytes, plan.chunk_bytes) << "a chunk fits its staging buffer";
    EXPECT_LE(plan.chunk_bytes, chunk_bytes);
    EXPECT_EQ(ch.offset % arrays[ch.array].element_bytes, 0u) << "chunk " << k << " splits an element";
    EXPECT_EQ(ch.bytes % arrays[ch.array].element_bytes, 0u) << "chunk " << k << " splits an element";
    ASSERT_LE(ch.offset + ch.bytes, arrays[ch.array].bytes);
    for (size_t b = ch.offset; b < ch.offset + ch.bytes; ++b) ++moved[ch.array][b];
    EXPECT_EQ(ch.slot, k % nslots) << "the staging slots alternate";
    EXPECT_EQ(ch.stream, k % nstreams) << "the copy streams alternate";
    EXPECT_EQ(ch.reuse_after, holder[ch.slot]) << "chunk " << k << " must wait for the copy that last used its slot";
    if (ch.reuse_after) {
      EXPECT_LT(*ch.reuse_after, k);
    }
    holder[ch.slot] = k;
  }
  for (size_t a = 0; a < arrays.size(); ++a) {
    for (size_t b = 0; b < arrays[a].bytes; ++b) ASSERT_EQ(moved[a][b], 1) << "array " << a << " byte " << b;
    if (arrays[a].bytes == 0) {
      EXPECT_FALSE(plan.last_chunk[a]);
      continue;
    }
    ASSERT_TRUE(plan.last_chunk[a]);
    const copy_chunk& last = plan.chunks[*plan.last_chunk[a]];
    EXPECT_EQ(last.array, a);
    EXPECT_EQ(last.offset + last.bytes, arrays[a].bytes) << "the consumer waits for the array's end";
  }
}

TEST(copy_plan, msm_shapes_move_every_byte_once) {
  // Scalars (32 B) then points (96 B): sizes that divide the chunk, that do not, and smaller than one chunk.
  check_plan({{32 * 1000, 32}, {96 * 1000, 96}}, 4096, 2, 1);
  check_plan({{32 * 4096, 32}, {96 * 4096, 96}}, 1 << 16, 2, 1);
  check_plan({{32 * 3, 32}, {96 * 3, 96}}, 1 << 20, 2, 1);
  check_plan({{32 * 777, 32}, {96 * 777, 96}}, 1000, 3, 2);
  check_plan({{0, 32}, {96 * 10, 96}}, 200, 2, 1);
}

TEST(copy_plan, two_slots_alternate_and_each_refill_waits_for_the_chunk_before_last) {
  const copy_plan plan = plan_copies({{32 * 100, 32}, {96 * 100, 96}}, 320, 2, 1);
  ASSERT_GT(plan.chunks.size(), 4u);
  EXPECT_FALSE(plan.chunks[0].reuse_after);
  EXPECT_FALSE(plan.chunks[1].reuse_after);
  for (size_t k = 2; k < plan.chunks.size(); ++k) EXPECT_EQ(plan.chunks[k].reuse_after, k - 2);
  EXPECT_EQ(plan.chunks[0].bytes, 320u);  // ten scalars
  EXPECT_EQ(plan.chunks[10].bytes, 288u);  // three points: 320 holds no fourth
}

TEST(copy_plan, bad_shapes_are_refused) {
  EXPECT_THROW(plan_copies({{100, 32}}, 4096), std::invalid_argument);  // not whole elements
  EXPECT_THROW(plan_copies({{96, 96}}, 64), std::invalid_argument);     // a chunk holds no element
  EXPECT_THROW(plan_copies({{64, 32}}, 64, 0), std::invalid_argument);  // no slot
  EXPECT_THROW(plan_copies({{64, 32}}, 64, 2, 0), std::invalid_argument);
}

}  // namespace
}  // namespace zk::gpu
