// BLS12-381 scalar field Fr (255-bit r, 4 limbs), the field of the circuits' variables.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/mont.hpp"

namespace zk {

// Constants computed with Python's big integers (R = 2²⁵⁶) and checked against GMP in
// tests/variants/ff/fr_test.cpp.
struct fr_params {
  static constexpr size_t nlimbs = 4;
  // r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
  static constexpr uint64_t modulus[4] = {
      0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48};
  // R² mod r
  static constexpr uint64_t r2[4] = {
      0xc999e990f3f29c6d, 0x2b6cedcb87925c23, 0x05d314967254398f, 0x0748d9d99f59ff11};
  // R mod r
  static constexpr uint64_t one[4] = {
      0x00000001fffffffe, 0x5884b7fa00034802, 0x998c4fefecbc4ff5, 0x1824b159acc5056f};
  // −r⁻¹ mod 2⁶⁴
  static constexpr uint64_t inv = 0xfffffffeffffffff;
  // r − 1 = 2³² · t, t odd
  static constexpr uint32_t two_adicity = 32;
  // 7 is a quadratic non-residue mod r (bellman / arkworks MULTIPLICATIVE_GENERATOR)
  static constexpr uint64_t generator = 7;
  // ω = 7^((r−1)/2³²), canonical: the 2³²-th root of unity of bellman and arkworks
  static constexpr uint64_t root_of_unity[4] = {
      0x3829971f439f0d2b, 0xb63683508c2280b9, 0xd09b681922c813b4, 0x16a2a19edfe81f20};
};

using fr = mont_t<fr_params>;

}  // namespace zk
