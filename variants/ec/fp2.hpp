// Fp2 = Fp[u]/(u² + 1), the field of the BLS12-381 G2 coordinates; written once for CPU and CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "ff/fp.hpp"
#include "ff/hd.hpp"

namespace zk {

struct fp2 {
  fp c0;  // the real part
  fp c1;  // the coefficient of u

  ZK_HD static fp2 zero() { return {fp::zero(), fp::zero()}; }
  ZK_HD static fp2 one() { return {fp::one(), fp::zero()}; }

  ZK_HD fp2 operator+(const fp2& o) const { return {c0 + o.c0, c1 + o.c1}; }
  ZK_HD fp2 operator-(const fp2& o) const { return {c0 - o.c0, c1 - o.c1}; }
  ZK_HD fp2 operator-() const { return {-c0, -c1}; }
  ZK_HD fp2& operator+=(const fp2& o) { return *this = *this + o; }
  ZK_HD fp2& operator-=(const fp2& o) { return *this = *this - o; }
  ZK_HD fp2& operator*=(const fp2& o) { return *this = *this * o; }
  ZK_HD bool operator==(const fp2& o) const { return c0 == o.c0 && c1 == o.c1; }
  ZK_HD bool operator!=(const fp2& o) const { return !(*this == o); }

  // Karatsuba: (a0 + a1·u)(b0 + b1·u) = (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)·u, 3M.
  ZK_HD fp2 operator*(const fp2& o) const {
    const fp t0 = c0 * o.c0;
    const fp t1 = c1 * o.c1;
    return {t0 - t1, (c0 + c1) * (o.c0 + o.c1) - t0 - t1};
  }
  ZK_HD fp2 operator*(const fp& s) const { return {c0 * s, c1 * s}; }

  // (a0 + a1·u)² = (a0 + a1)(a0 − a1) + 2·a0·a1·u, 2M.
  ZK_HD fp2 sqr() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
  ZK_HD fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  ZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  ZK_HD fp2 conjugate() const { return {c0, -c1}; }  // also the p-power Frobenius

  // Multiplication by ξ = 1 + u, the non-residue that defines Fp6 and the twist: (a0 − a1) + (a0 + a1)·u.
  ZK_HD fp2 mul_by_xi() const { return {c0 - c1, c0 + c1}; }

  // 1/(a0 + a1·u) = (a0 − a1·u)/(a0² + a1²); 0 → 0.
  ZK_HD fp2 inverse() const {
    const fp n = (c0.sqr() + c1.sqr()).inverse();
    return {c0 * n, -(c1 * n)};
  }

  // Square-and-multiply by a little-endian exponent of nlimbs 64-bit limbs.
  ZK_HD fp2 pow(const uint64_t* exp, size_t nlimbs) const {
    fp2 r = one();
    for (size_t i = nlimbs; i-- > 0;) {
      for (int b = 63; b >= 0; --b) {
        r = r.sqr();
        if ((exp[i] >> b) & 1) r *= *this;
      }
    }
    return r;
  }

  // Host only: a square root, or nothing for a non-square (ec/fp2.cpp).
  std::optional<fp2> sqrt() const;
  // Host only: the zcash "lexicographically largest" sign: c1 > (p−1)/2, or c1 = 0 and c0 > (p−1)/2.
  bool lexicographically_largest() const;
};

// Host only: the same sign for Fp (the G1 compression flag).
bool lexicographically_largest(const fp& a);

}  // namespace zk
