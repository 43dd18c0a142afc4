// The optimal ate pairing on BLS12-381, e: G1 × G2 → GT ⊂ Fp12*: Miller loop, final exponentiation.
//
//   zk::fp12 gt = zk::pairing(p, q);                              // one pairing
//   bool ok = zk::final_exponentiation(zk::miller_loop(a, b) * zk::miller_loop(-c, d)) == zk::fp12::one();
#pragma once

#include <span>

#include "ec/curves.hpp"
#include "pairing/fp12.hpp"

namespace zk {

// f_{x,Q}(P) for the curve parameter x = −0xd201000000010000 (conjugated for the negative x);
// 1 when either point is the identity.
fp12 miller_loop(const g1_affine& p, const g2_affine& q);

// Π miller_loop(ps[i], qs[i]), sharing nothing but the product (spans of equal length).
fp12 multi_miller_loop(std::span<const g1_affine> ps, std::span<const g2_affine> qs);

// f^((p¹² − 1)/r): the easy part (p⁶ − 1)(p² + 1) by conjugation, inversion and exponentiation,
// then the hard part (p⁴ − p² + 1)/r by square-and-multiply.
fp12 final_exponentiation(const fp12& f);

fp12 pairing(const g1_affine& p, const g2_affine& q);

}  // namespace zk
