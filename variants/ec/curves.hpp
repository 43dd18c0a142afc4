// BLS12-381 G1 (over Fp) and G2 (over Fp2, the M-type sextic twist): point types and constants.
#pragma once

#include <cstdint>

#include "ec/affine.hpp"
#include "ec/fp2.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/xyzz.hpp"
#include "ff/fp.hpp"
#include "ff/hd.hpp"

namespace zk {

// E: y² = x³ + 4.
struct g1_curve {
  ZK_HD static fp b() { return fp::from_u64(4); }
};
// E': y² = x³ + 4(1 + u), the twist whose points map into E(Fp12) by (x, y) ↦ (x/w², y/w³).
struct g2_curve {
  ZK_HD static fp2 b() { return fp2{fp::from_u64(4), fp::from_u64(4)}; }
};

using g1_affine = affine_t<fp, g1_curve>;
using g1_jacobian = jacobian_t<fp, g1_curve>;
using g1_xyzz = xyzz_t<fp, g1_curve>;
using g2_affine = affine_t<fp2, g2_curve>;
using g2_jacobian = jacobian_t<fp2, g2_curve>;
using g2_xyzz = xyzz_t<fp2, g2_curve>;

// The prime order r of G1 and G2 (= the Fr modulus), little-endian limbs.
inline constexpr uint64_t group_order[4] = {0xffffffff00000001, 0x53bda402fffe5bfe,
                                            0x3339d80809a1d805, 0x73eda753299d7d48};

// Subgroup membership by [r]P = O. Slow (a 255-bit multiplication) but formula-free; the fast
// endomorphism tests (Scott, eprint 2021/1130) are an optimization for untrusted bulk input.
template <class A>
ZK_HD bool is_in_subgroup(const A& p) {
  using J = jacobian_t<typename A::field, typename A::curve>;
  return p.is_on_curve() && scalar_mul(J::from_affine(p), group_order, 4).is_identity();
}

// The standard generators (zcash / IETF pairing-friendly-curves draft, §4.2.1).
g1_affine g1_generator();
g2_affine g2_generator();

}  // namespace zk
