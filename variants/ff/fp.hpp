// BLS12-381 base field Fp (381-bit p, 6 limbs), the field of the curve coordinates.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/mont.hpp"

namespace zk {

// Constants computed with Python's big integers (R = 2³⁸⁴) and checked against GMP in
// tests/variants/ff/fp_test.cpp. p ≡ 3 mod 4, so sqrt is one exponentiation.
struct fp_params {
  static constexpr size_t nlimbs = 6;
  // p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
  static constexpr uint64_t modulus[6] = {
      0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
      0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
  // R² mod p
  static constexpr uint64_t r2[6] = {
      0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5,
      0x67eb88a9939d83c0, 0x9a793e85b519952d, 0x11988fe592cae3aa};
  // R mod p
  static constexpr uint64_t one[6] = {
      0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba,
      0x77ce585370525745, 0x5c071a97a256ec6d, 0x15f65ec3fa80e493};
  // −p⁻¹ mod 2⁶⁴
  static constexpr uint64_t inv = 0x89f3fffcfffcfffd;
};

using fp = mont_t<fp_params>;

}  // namespace zk
