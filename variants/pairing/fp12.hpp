// Fp12 = Fp6[w]/(w² − v): the target group's field of the BLS12-381 pairing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/hd.hpp"
#include "pairing/fp6.hpp"

namespace zk {

struct fp12 {
  fp6 c0, c1;  // c0 + c1·w

  ZK_HD static fp12 zero() { return {fp6::zero(), fp6::zero()}; }
  ZK_HD static fp12 one() { return {fp6::one(), fp6::zero()}; }

  ZK_HD fp12 operator+(const fp12& o) const { return {c0 + o.c0, c1 + o.c1}; }
  ZK_HD fp12 operator-(const fp12& o) const { return {c0 - o.c0, c1 - o.c1}; }
  ZK_HD bool operator==(const fp12& o) const { return c0 == o.c0 && c1 == o.c1; }
  ZK_HD bool operator!=(const fp12& o) const { return !(*this == o); }

  // Karatsuba: (a0 + a1·w)(b0 + b1·w) = (a0b0 + a1b1·v) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)·w.
  ZK_HD fp12 operator*(const fp12& o) const {
    const fp6 t0 = c0 * o.c0, t1 = c1 * o.c1;
    return {t0 + t1.mul_by_v(), (c0 + c1) * (o.c0 + o.c1) - t0 - t1};
  }
  ZK_HD fp12& operator*=(const fp12& o) { return *this = *this * o; }
  ZK_HD fp12 sqr() const { return *this * *this; }

  // The p⁶-power Frobenius, w ↦ −w; the inverse of elements of norm 1 (after the easy part).
  ZK_HD fp12 conjugate() const { return {c0, -c1}; }

  // 1/(a0 + a1·w) = (a0 − a1·w)/(a0² − a1²·v).
  ZK_HD fp12 inverse() const {
    const fp6 d = (c0.sqr() - c1.sqr().mul_by_v()).inverse();
    return {c0 * d, -(c1 * d)};
  }

  ZK_HD fp12 pow(const uint64_t* exp, size_t nlimbs) const {
    fp12 r = one();
    for (size_t i = nlimbs; i-- > 0;) {
      for (int b = 63; b >= 0; --b) {
        r = r.sqr();
        if ((exp[i] >> b) & 1) r *= *this;
      }
    }
    return r;
  }
};

}  // namespace zk
