// Optimal ate pairing on BLS12-381: affine Miller loop on the twist, plain final exponentiation.
#include "pairing/pairing.hpp"

#include <cstdint>
#include <stdexcept>

namespace zk {
namespace {

// |x| for BLS12-381, x = −0xd201000000010000 (Bowe, "BLS12-381: New zk-SNARK Elliptic Curve
// Construction", 2017); the Miller loop of the optimal ate pairing runs over its bits.
constexpr uint64_t abs_x = 0xd201000000010000;

// (p² + 1)·(p⁴ − p² + 1)/r, little-endian, from Python big integers: the part of the final
// exponent left after f^(p⁶ − 1), which conjugation and one inversion give.
constexpr uint64_t hard_exponent[32] = {
    0x8739e1cdc0705d6a, 0x09a5256de0381a16, 0x9cf0f70a61c791e2, 0x3a09c4497903f76e,
    0x2d7271563890f133, 0x224741b36fec7760, 0x338259c22a12bd40, 0x38ee1cd4778e0de7,
    0xc3b5ef4b188a20b0, 0x1d615d49e2764d7b, 0x816101ddd076117d, 0xf007c01e7ebe3afc,
    0x27d7bd90935021c3, 0xc3b5e2f557c0b15f, 0x5e886c94c4f82384, 0xee6a95db11e63f56,
    0x2b822f514a9c4f6f, 0x12d6a874d21b73da, 0x1304275ef499dffb, 0x967878febcb95d1f,
    0x4744497f8b2f2922, 0x85a2e707f0841855, 0x9f0c50126c802eec, 0xfb46e197bd2fa489,
    0x548ce0809bc5f61a, 0xcf56fb1573beaa8c, 0xad7375a3763bdf7c, 0xe0ec9031179bdecc,
    0x6579aea83c48c1da, 0xdbf85ae664cf5bb3, 0x7b6f235c55ca7566, 0x000028b314877503};

// The line through T with slope λ (on the twist E'), evaluated at P ∈ E(Fp) and scaled by w³.
// With the untwist (x, y) ↦ (x/w², y/w³) the slope on E is λ/w, and
//   w³·(y_P − y_T/w³ − (λ/w)(x_P − x_T/w²)) = y_P·w³ − λ·x_P·w² + (λ·x_T − y_T).
// In the tower w² = v and w³ = v·w. The factor w³ lies in a proper subfield of Fp12 and is
// erased by the final exponentiation.
fp12 line(const fp2& lambda, const fp2& xt, const fp2& yt, const g1_affine& p) {
  fp12 l = fp12::zero();
  l.c0.c0 = lambda * xt - yt;
  l.c0.c1 = -(lambda * p.x);
  l.c1.c1 = fp2{p.y, fp::zero()};
  return l;
}

}  // namespace

fp12 miller_loop(const g1_affine& p, const g2_affine& q) {
  if (p.inf || q.inf) return fp12::one();
  fp12 f = fp12::one();
  fp2 tx = q.x, ty = q.y;
  for (int bit = 62; bit >= 0; --bit) {
    // Doubling step: λ = 3x²/(2y). T never reaches the identity: its order is r, |x| < r.
    const fp2 xx = tx.sqr();
    const fp2 lambda = (xx.dbl() + xx) * ty.dbl().inverse();
    f = f.sqr() * line(lambda, tx, ty, p);
    const fp2 x3 = lambda.sqr() - tx.dbl();
    ty = lambda * (tx - x3) - ty;
    tx = x3;
    if ((abs_x >> bit) & 1) {
      // Addition step: λ = (y_T − y_Q)/(x_T − x_Q); T ≠ ±Q because T = [k]Q with 1 < k < r − 1.
      const fp2 l2 = (ty - q.y) * (tx - q.x).inverse();
      f = f * line(l2, tx, ty, p);
      const fp2 x4 = l2.sqr() - tx - q.x;
      ty = l2 * (tx - x4) - ty;
      tx = x4;
    }
  }
  return f.conjugate();  // x < 0: f_{−|x|} ≡ 1/f_{|x|}, and 1/f ≡ f^(p⁶) after the final exponentiation
}

fp12 multi_miller_loop(std::span<const g1_affine> ps, std::span<const g2_affine> qs) {
  if (ps.size() != qs.size()) throw std::invalid_argument("multi_miller_loop: spans differ in length");
  fp12 f = fp12::one();
  for (size_t i = 0; i < ps.size(); ++i) f *= miller_loop(ps[i], qs[i]);
  return f;
}

fp12 final_exponentiation(const fp12& f) {
  const fp12 easy = f.conjugate() * f.inverse();  // f^(p⁶ − 1)
  return easy.pow(hard_exponent, 32);
}

fp12 pairing(const g1_affine& p, const g2_affine& q) { return final_exponentiation(miller_loop(p, q)); }

}  // namespace zk
