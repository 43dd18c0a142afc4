// The GPU NTT's per-thread steps (gpu/ntt/ntt_steps.hpp) on the CPU, no device needed: the power
// tables, and ntt.cu's launch sequence emulated thread by thread against zk::ntt / intt / coset_*.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gpu/ntt/ntt_steps.hpp"
#include "gpu/random_inputs.hpp"
#include "ntt/ntt.hpp"

namespace zk::gpu::ntt_steps {
namespace {

TEST(gpu_ntt_steps, power_table_gives_every_power_across_both_tables) {
  const uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  const fr x = fr::random(rng);
  for (unsigned lg_n : {0u, 3u, 10u, 11u, 14u}) {
    const power_tables t(x, lg_n);
    const power_table w = t.table();
    fr p = fr::one();
    for (size_t k = 0; k < (size_t{1} << lg_n); ++k) {
      ASSERT_EQ(w(k), p) << "lg_n " << lg_n << " k " << k << " seed " << seed;
      p *= x;
    }
  }
}

TEST(gpu_ntt_steps, bit_reversal_is_an_involution_with_the_right_pairs) {
  for (unsigned lg_n = 1; lg_n <= 12; ++lg_n) {
    for (size_t i = 0; i < (size_t{1} << lg_n); ++i) {
      const size_t j = bit_reversed(i, lg_n);
      ASSERT_LT(j, size_t{1} << lg_n);
      ASSERT_EQ(bit_reversed(j, lg_n), i);
      ASSERT_EQ(i & 1, (j >> (lg_n - 1)) & 1) << "bit 0 becomes bit " << lg_n - 1;
    }
  }
}

// ntt.cu's transform: bit reversal, the shared-memory stages tile by tile, then the global stages.
void transform(std::vector<fr>& a, unsigned lg_n, const power_table& w) {
  if (lg_n == 0) return;
  const size_t n = size_t{1} << lg_n;
  for (size_t i = 0; i < n; ++i) bit_reverse_pair(a.data(), i, lg_n);
  const unsigned lg_tile = std::min(lg_n, lg_tile_max);
  for (size_t block = 0; block < (n >> lg_tile); ++block) {  // shared_stages: one block per tile
    std::vector<fr> tile(a.begin() + (block << lg_tile), a.begin() + ((block + 1) << lg_tile));
    for (unsigned lg_m = 0; lg_m < lg_tile; ++lg_m)
      for (size_t t = 0; t < (size_t{1} << (lg_tile - 1)); ++t) butterfly(tile.data(), t, lg_m, lg_n, w);
    std::copy(tile.begin(), tile.end(), a.begin() + (block << lg_tile));
  }
  for (unsigned lg_m = lg_tile; lg_m < lg_n; ++lg_m)  // global_stage
    for (size_t b = 0; b < n / 2; ++b) butterfly(a.data(), b, lg_m, lg_n, w);
}

// ntt.cu's zk::gpu::ntt, kernel for kernel.
void emulate(std::vector<fr>& a, unsigned lg_n, bool forward, bool coset) {
  const size_t n = size_t{1} << lg_n;
  const fr g = fr::generator();
  const power_tables w(forward ? domain_root(lg_n) : domain_root(lg_n).inverse(), lg_n);
  std::optional<power_tables> shift;
  if (coset) shift.emplace(forward ? g : g.inverse(), lg_n);
  const power_table none{nullptr, nullptr};
  if (forward) {
    if (coset)
      for (size_t i = 0; i < n; ++i) scale_one(a.data(), i, fr::one(), shift->table(), true);
    transform(a, lg_n, w.table());
  } else {
    transform(a, lg_n, w.table());
    const fr n_inv = fr::from_u64(n).inverse();
    for (size_t i = 0; i < n; ++i) scale_one(a.data(), i, n_inv, coset ? shift->table() : none, coset);
  }
}

TEST(gpu_ntt_steps, emulated_launch_sequence_equals_the_cpu_ntt) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const fr g = fr::generator();
  for (unsigned lg_n = 0; lg_n <= 13; ++lg_n) {  // 11…13: global stages after the shared ones
    for (bool forward : {true, false}) {
      for (bool coset : {false, true}) {
        SCOPED_TRACE("lg " + std::to_string(lg_n) + (forward ? " forward" : " inverse") + (coset ? " coset" : " natural"));
        std::vector<fr> expected = random_frs(size_t{1} << lg_n, seed + lg_n);
        std::vector<fr> got = expected;
        if (forward) coset ? coset_ntt(expected, g, 1) : zk::ntt(expected, 1);
        else coset ? coset_intt(expected, g, 1) : intt(expected, 1);
        emulate(got, lg_n, forward, coset);
        EXPECT_TRUE(got == expected);
      }
    }
  }
}

}  // namespace
}  // namespace zk::gpu::ntt_steps
