// XYZZ points (x, y) = (X/ZZ, Y/ZZZ), ZZ³ = ZZZ²: the cheapest bucket accumulator for Pippenger.
#pragma once

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ff/hd.hpp"

namespace zk {

// The point at infinity has ZZ = 0. Formulas from the EFD, "XYZZ coordinates" (Sutherland 2008,
// hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html), with a = 0.
template <class F, class C>
struct xyzz_t {
  using field = F;
  using curve = C;
  using affine = affine_t<F, C>;
  using jacobian = jacobian_t<F, C>;

  F x;
  F y;
  F zz;
  F zzz;

  ZK_HD static xyzz_t identity() { return {F::one(), F::one(), F::zero(), F::zero()}; }
  ZK_HD bool is_identity() const { return zz.is_zero(); }

  // With Z = ZZZ: Z² = ZZZ² = ZZ³, so X_j = x·Z² = X·ZZ² and Y_j = y·Z³ = Y·ZZZ².
  ZK_HD jacobian to_jacobian() const {
    if (is_identity()) return jacobian::identity();
    return {x * zz.sqr(), y * zzz.sqr(), zzz};
  }

  // dbl-2008-s-1, 6M + 3S (input not the identity).
  ZK_HD xyzz_t dbl() const {
    if (is_identity()) return *this;
    const F u = y.dbl();
    const F v = u.sqr();
    const F w = u * v;
    const F s = x * v;
    const F xx = x.sqr();
    const F m = xx.dbl() + xx;
    const F x3 = m.sqr() - s.dbl();
    return {x3, m * (s - x3) - w * y, v * zz, w * zzz};
  }

  // mdbl-2008-s-1, doubling of an affine point: 2M + 3S.
  ZK_HD static xyzz_t dbl(const affine& p) {
    const F u = p.y.dbl();
    const F v = u.sqr();
    const F w = u * v;
    const F s = p.x * v;
    const F xx = p.x.sqr();
    const F m = xx.dbl() + xx;
    const F x3 = m.sqr() - s.dbl();
    return {x3, m * (s - x3) - w * p.y, v, w};
  }

  // madd-2008-s, 8M + 2S.
  ZK_HD xyzz_t operator+(const affine& o) const {
    if (o.inf) return *this;
    if (is_identity()) return {o.x, o.y, F::one(), F::one()};
    const F u2 = o.x * zz;
    const F s2 = o.y * zzz;
    const F p = u2 - x;
    const F r = s2 - y;
    if (p.is_zero()) return r.is_zero() ? dbl(o) : identity();
    const F pp = p.sqr();
    const F ppp = p * pp;
    const F q = x * pp;
    const F x3 = r.sqr() - ppp - q.dbl();
    return {x3, r * (q - x3) - y * ppp, zz * pp, zzz * ppp};
  }

  // add-2008-s, 12M + 2S.
  ZK_HD xyzz_t operator+(const xyzz_t& o) const {
    if (is_identity()) return o;
    if (o.is_identity()) return *this;
    const F u1 = x * o.zz;
    const F u2 = o.x * zz;
    const F s1 = y * o.zzz;
    const F s2 = o.y * zzz;
    const F p = u2 - u1;
    const F r = s2 - s1;
    if (p.is_zero()) return r.is_zero() ? dbl() : identity();
    const F pp = p.sqr();
    const F ppp = p * pp;
    const F q = u1 * pp;
    const F x3 = r.sqr() - ppp - q.dbl();
    return {x3, r * (q - x3) - s1 * ppp, zz * o.zz * pp, zzz * o.zzz * ppp};
  }

  ZK_HD xyzz_t operator-(const affine& o) const { return *this + (-o); }
  ZK_HD xyzz_t& operator+=(const affine& o) { return *this = *this + o; }
  ZK_HD xyzz_t& operator-=(const affine& o) { return *this = *this + (-o); }
  ZK_HD xyzz_t& operator+=(const xyzz_t& o) { return *this = *this + o; }
};

}  // namespace zk
