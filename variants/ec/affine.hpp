// Affine points y² = x³ + b of a short-Weierstrass curve with a = 0 (BLS12-381 G1 and G2).
#pragma once

#include "ff/hd.hpp"

namespace zk {

// F: the coordinate field (fp or fp2); C: the curve, with `static F b()`.
// The point at infinity is stored as (0, 0) with `inf` set; (0, 0) is not on either curve.
template <class F, class C>
struct affine_t {
  using field = F;
  using curve = C;

  F x;
  F y;
  bool inf;

  ZK_HD static affine_t identity() { return {F::zero(), F::zero(), true}; }
  ZK_HD bool is_identity() const { return inf; }

  ZK_HD bool is_on_curve() const { return inf || y.sqr() == x.sqr() * x + C::b(); }

  ZK_HD affine_t operator-() const { return {x, inf ? y : -y, inf}; }
  ZK_HD bool operator==(const affine_t& o) const {
    return inf == o.inf && (inf || (x == o.x && y == o.y));
  }
  ZK_HD bool operator!=(const affine_t& o) const { return !(*this == o); }
};

}  // namespace zk
