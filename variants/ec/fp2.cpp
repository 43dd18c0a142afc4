// Host-only Fp2 helpers: square root (for point decompression) and the zcash sign convention.
#include <cstdint>
#include <optional>

#include "ec/fp2.hpp"

namespace zk {
namespace {

// (p − 3)/4 and (p − 1)/2, little-endian (Python big integers).
constexpr uint64_t p_minus_3_div_4[6] = {0xee7fbfffffffeaaa, 0x07aaffffac54ffff, 0xd9cc34a83dac3d89,
                                         0xd91dd2e13ce144af, 0x92c6e9ed90d2eb35, 0x0680447a8e5ff9a6};
constexpr uint64_t p_minus_1_div_2[6] = {0xdcff7fffffffd555, 0x0f55ffff58a9ffff, 0xb39869507b587b12,
                                         0xb23ba5c279c2895f, 0x258dd3db21a5d66b, 0x0d0088f51cbff34d};

// a > (p − 1)/2 on canonical values.
bool above_half(const fp& a) {
  uint64_t c[6];
  a.to_canonical(c);
  for (int i = 5; i >= 0; --i) {
    if (c[i] != p_minus_1_div_2[i]) return c[i] > p_minus_1_div_2[i];
  }
  return false;
}

}  // namespace

// Adj & Rodríguez-Henríquez, "Square root computation over even extension fields", Alg. 9
// (ePrint 2012/685), for q = p ≡ 3 mod 4; the result is checked by squaring.
std::optional<fp2> fp2::sqrt() const {
  if (is_zero()) return zero();
  const fp2 a1 = pow(p_minus_3_div_4, 6);
  const fp2 alpha = a1.sqr() * *this;
  const fp2 x0 = a1 * *this;
  const fp2 minus_one = -one();
  fp2 x;
  if (alpha == minus_one) {
    x = fp2{-x0.c1, x0.c0};  // u·x0
  } else {
    x = (alpha + one()).pow(p_minus_1_div_2, 6) * x0;
  }
  if (x.sqr() != *this) return std::nullopt;
  return x;
}

bool fp2::lexicographically_largest() const {
  return c1.is_zero() ? above_half(c0) : above_half(c1);
}

bool lexicographically_largest(const fp& a) { return above_half(a); }

}  // namespace zk
