// Fp6 = Fp2[v]/(v³ − ξ), ξ = 1 + u: the middle layer of the BLS12-381 tower.
#pragma once

#include "ec/fp2.hpp"
#include "ff/hd.hpp"

namespace zk {

struct fp6 {
  fp2 c0, c1, c2;  // c0 + c1·v + c2·v²

  ZK_HD static fp6 zero() { return {fp2::zero(), fp2::zero(), fp2::zero()}; }
  ZK_HD static fp6 one() { return {fp2::one(), fp2::zero(), fp2::zero()}; }

  ZK_HD fp6 operator+(const fp6& o) const { return {c0 + o.c0, c1 + o.c1, c2 + o.c2}; }
  ZK_HD fp6 operator-(const fp6& o) const { return {c0 - o.c0, c1 - o.c1, c2 - o.c2}; }
  ZK_HD fp6 operator-() const { return {-c0, -c1, -c2}; }
  ZK_HD bool operator==(const fp6& o) const { return c0 == o.c0 && c1 == o.c1 && c2 == o.c2; }
  ZK_HD bool operator!=(const fp6& o) const { return !(*this == o); }
  ZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }

  // Karatsuba over three coefficients (Devegili, Ó hÉigeartaigh, Scott, Dahab, "Multiplication and
  // squaring on pairing-friendly fields", ePrint 2006/471 §4), 6 Fp2 multiplications; v³ = ξ.
  ZK_HD fp6 operator*(const fp6& o) const {
    const fp2 t0 = c0 * o.c0, t1 = c1 * o.c1, t2 = c2 * o.c2;
    const fp2 r0 = ((c1 + c2) * (o.c1 + o.c2) - t1 - t2).mul_by_xi() + t0;
    const fp2 r1 = (c0 + c1) * (o.c0 + o.c1) - t0 - t1 + t2.mul_by_xi();
    const fp2 r2 = (c0 + c2) * (o.c0 + o.c2) - t0 - t2 + t1;
    return {r0, r1, r2};
  }
  ZK_HD fp6 sqr() const { return *this * *this; }

  // Multiplication by v: (c0, c1, c2)·v = (ξ·c2, c0, c1).
  ZK_HD fp6 mul_by_v() const { return {c2.mul_by_xi(), c0, c1}; }

  // Inverse through the norm to Fp2 (ePrint 2006/471 / "Guide to pairing-based cryptography" 5.2.4).
  ZK_HD fp6 inverse() const {
    const fp2 t0 = c0.sqr() - (c1 * c2).mul_by_xi();
    const fp2 t1 = c2.sqr().mul_by_xi() - c0 * c1;
    const fp2 t2 = c1.sqr() - c0 * c2;
    const fp2 d = (c0 * t0 + (c2 * t1).mul_by_xi() + (c1 * t2).mul_by_xi()).inverse();
    return {t0 * d, t1 * d, t2 * d};
  }
};

}  // namespace zk
