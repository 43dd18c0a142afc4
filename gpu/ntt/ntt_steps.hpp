// The GPU NTT's per-thread steps as ZK_HD functions: ntt.cuh's kernels run them on the device,
// tests/gpu/ntt_steps_test.cpp runs them on the CPU against zk::ntt, so CI checks the indexing without a GPU.
//
// The launch sequence (gpu/ntt/ntt.cu): [scale by the coset shift's powers] → bit_reverse → the first
// lg_tile stages per tile in shared memory → one launch per remaining stage → [scale by 1/n and the
// inverse shift's powers]; each thread calls one function here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ff/fr.hpp"
#include "ff/hd.hpp"

namespace zk::gpu::ntt_steps {

// x^k for k < lo_size·hi_size as lo[k mod lo_size]·hi[k / lo_size], lo[i] = x^i, hi[j] = x^(lo_size·j):
// two small host-built tables and one multiplication instead of an n/2-entry twiddle table.
constexpr unsigned lg_lo_size = 10;
struct power_table {
  const fr* lo;
  const fr* hi;
  ZK_HD fr operator()(size_t k) const { return lo[k & ((size_t{1} << lg_lo_size) - 1)] * hi[k >> lg_lo_size]; }
};

// The host side of a power_table for x covering exponents < 2^lg_n.
struct power_tables {
  std::vector<fr> lo, hi;
  power_tables(const fr& x, unsigned lg_n)
      : lo(size_t{1} << lg_lo_size), hi(size_t{1} << (lg_n > lg_lo_size ? lg_n - lg_lo_size : 0)) {
    fr p = fr::one();
    for (auto& v : lo) {
      v = p;
      p *= x;
    }
    const fr step = p;  // x^lo_size
    p = fr::one();
    for (auto& v : hi) {
      v = p;
      p *= step;
    }
  }
  power_table table() const { return {lo.data(), hi.data()}; }
};

// Elements per block in the shared-memory stages: 1024 × 32 B = 32 KiB, under the 48 KiB static limit.
constexpr unsigned lg_tile_max = 10;

// The lg_n-bit reversal of i (lg_n ≥ 1).
ZK_HD inline size_t bit_reversed(size_t i, unsigned lg_n) {
#ifdef __CUDA_ARCH__
  return __brevll(i) >> (64 - lg_n);
#else
  size_t r = 0;
  for (unsigned b = 0; b < lg_n; ++b) r |= ((i >> b) & 1) << (lg_n - 1 - b);
  return r;
#endif
}

// Thread i of the bit reversal: a[i] ↔ a[bitrev(i)], each pair swapped once (by its smaller index).
ZK_HD inline void bit_reverse_pair(fr* a, size_t i, unsigned lg_n) {
  const size_t j = bit_reversed(i, lg_n);
  if (i < j) {
    const fr t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

// Butterfly b (of n/2) of the Cooley–Tukey stage with half-span m = 2^lg_m, as ntt.cpp's
// `transform`: group b / m, offset j = b mod m, twiddle ω^(j·n/2m).
ZK_HD inline void butterfly(fr* a, size_t b, unsigned lg_m, unsigned lg_n, const power_table& w) {
  const size_t m = size_t{1} << lg_m;
  const size_t j = b & (m - 1);
  const size_t i0 = ((b >> lg_m) << (lg_m + 1)) + j, i1 = i0 + m;
  const fr v = a[i1] * w(j << (lg_n - 1 - lg_m));
  a[i1] = a[i0] - v;
  a[i0] = a[i0] + v;
}

// Thread i of the scaling: a[i] *= c·s^i (with_powers) or a[i] *= c.
ZK_HD inline void scale_one(fr* a, size_t i, const fr& c, const power_table& s, bool with_powers) {
  a[i] = with_powers ? a[i] * (c * s(i)) : a[i] * c;
}

}  // namespace zk::gpu::ntt_steps
