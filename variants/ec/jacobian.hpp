// Jacobian points (x, y) = (X/Z², Y/Z³) with a = 0: general, mixed addition and doubling.
#pragma once

#include "ec/affine.hpp"
#include "ff/hd.hpp"

namespace zk {

// The point at infinity has Z = 0. Formulas from the Explicit-Formulas Database (EFD),
// "Jacobian coordinates with a4 = 0" (hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html).
template <class F, class C>
struct jacobian_t {
  using field = F;
  using curve = C;
  using affine = affine_t<F, C>;

  F x;
  F y;
  F z;

  ZK_HD static jacobian_t identity() { return {F::one(), F::one(), F::zero()}; }
  ZK_HD static jacobian_t from_affine(const affine& a) {
    return a.inf ? identity() : jacobian_t{a.x, a.y, F::one()};
  }
  ZK_HD bool is_identity() const { return z.is_zero(); }

  // One inversion; use batch_to_affine for many points.
  ZK_HD affine to_affine() const {
    if (is_identity()) return affine::identity();
    const F zi = z.inverse();
    const F zi2 = zi.sqr();
    return {x * zi2, y * zi2 * zi, false};
  }

  // Projective equality: X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³.
  ZK_HD bool operator==(const jacobian_t& o) const {
    if (is_identity() || o.is_identity()) return is_identity() && o.is_identity();
    const F z1z1 = z.sqr();
    const F z2z2 = o.z.sqr();
    return x * z2z2 == o.x * z1z1 && y * z2z2 * o.z == o.y * z1z1 * z;
  }
  ZK_HD bool operator!=(const jacobian_t& o) const { return !(*this == o); }
  ZK_HD jacobian_t operator-() const { return {x, -y, z}; }

  // dbl-2009-l, 2M + 5S.
  ZK_HD jacobian_t dbl() const {
    if (is_identity()) return *this;
    const F a = x.sqr();
    const F b = y.sqr();
    const F c = b.sqr();
    const F d = ((x + b).sqr() - a - c).dbl();
    const F e = a.dbl() + a;
    const F f = e.sqr();
    const F x3 = f - d.dbl();
    const F c8 = c.dbl().dbl().dbl();
    return {x3, e * (d - x3) - c8, (y * z).dbl()};
  }

  // add-2007-bl, 11M + 5S; falls back to doubling when both inputs are the same point.
  ZK_HD jacobian_t operator+(const jacobian_t& o) const {
    if (is_identity()) return o;
    if (o.is_identity()) return *this;
    const F z1z1 = z.sqr();
    const F z2z2 = o.z.sqr();
    const F u1 = x * z2z2;
    const F u2 = o.x * z1z1;
    const F s1 = y * o.z * z2z2;
    const F s2 = o.y * z * z1z1;
    const F h = u2 - u1;
    const F r = (s2 - s1).dbl();
    if (h.is_zero()) return r.is_zero() ? dbl() : identity();
    const F i = h.dbl().sqr();
    const F j = h * i;
    const F v = u1 * i;
    const F x3 = r.sqr() - j - v.dbl();
    const F y3 = r * (v - x3) - (s1 * j).dbl();
    const F z3 = ((z + o.z).sqr() - z1z1 - z2z2) * h;
    return {x3, y3, z3};
  }

  // madd-2007-bl (Z2 = 1), 7M + 4S.
  ZK_HD jacobian_t operator+(const affine& o) const {
    if (o.inf) return *this;
    if (is_identity()) return from_affine(o);
    const F z1z1 = z.sqr();
    const F u2 = o.x * z1z1;
    const F s2 = o.y * z * z1z1;
    const F h = u2 - x;
    const F r = (s2 - y).dbl();
    if (h.is_zero()) return r.is_zero() ? dbl() : identity();
    const F hh = h.sqr();
    const F i = hh.dbl().dbl();
    const F j = h * i;
    const F v = x * i;
    const F x3 = r.sqr() - j - v.dbl();
    const F y3 = r * (v - x3) - (y * j).dbl();
    const F z3 = (z + h).sqr() - z1z1 - hh;
    return {x3, y3, z3};
  }

  ZK_HD jacobian_t operator-(const jacobian_t& o) const { return *this + (-o); }
  ZK_HD jacobian_t& operator+=(const jacobian_t& o) { return *this = *this + o; }
  ZK_HD jacobian_t& operator+=(const affine& o) { return *this = *this + o; }
};

}  // namespace zk
