// 64-bit limb primitives (add with carry, subtract with borrow, multiply-accumulate) for CPU and CUDA.
#pragma once

#include <cstdint>

#include "ff/hd.hpp"

namespace zk::limb {

// a + b + carry_in; carry_out ∈ {0, 1}.
ZK_HD constexpr uint64_t adc(uint64_t a, uint64_t b, uint64_t carry_in, uint64_t& carry_out) {
  const uint64_t s = a + b;
  const uint64_t r = s + carry_in;
  carry_out = static_cast<uint64_t>(s < a) | static_cast<uint64_t>(r < s);
  return r;
}

// a − b − borrow_in; borrow_out ∈ {0, 1}.
ZK_HD constexpr uint64_t sbb(uint64_t a, uint64_t b, uint64_t borrow_in, uint64_t& borrow_out) {
  const uint64_t d = a - b;
  const uint64_t r = d - borrow_in;
  borrow_out = static_cast<uint64_t>(a < b) | static_cast<uint64_t>(d < borrow_in);
  return r;
}

// a·b + c + d as (hi, lo); cannot overflow: (2⁶⁴−1)² + 2(2⁶⁴−1) = 2¹²⁸ − 1.
ZK_HD constexpr uint64_t mac(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t& hi) {
#if defined(__CUDA_ARCH__)
  // No __int128 on the device: 64-bit mul.lo / mul.hi, then the two additions with carries.
  uint64_t lo = a * b;
  uint64_t h = __umul64hi(a, b);
  lo += c;
  h += static_cast<uint64_t>(lo < c);
  lo += d;
  h += static_cast<uint64_t>(lo < d);
  hi = h;
  return lo;
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b + c + d;
  hi = static_cast<uint64_t>(p >> 64);
  return static_cast<uint64_t>(p);
#endif
}

}  // namespace zk::limb
