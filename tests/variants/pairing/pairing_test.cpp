// The pairing: bilinearity, non-degeneracy, order r in GT, identity handling, product checks.
#include <gtest/gtest.h>

#include <random>

#include "ff/fr.hpp"
#include "pairing/pairing.hpp"

namespace zk {
namespace {

TEST(pairing, bilinear_and_non_degenerate) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const g1_affine p = g1_generator();
  const g2_affine q = g2_generator();
  const fp12 e = pairing(p, q);
  EXPECT_NE(e, fp12::one());
  EXPECT_EQ(e.pow(group_order, 4), fp12::one());

  const fr a = fr::random(rng), b = fr::random(rng);
  uint64_t ka[4], kb[4], kab[4];
  a.to_canonical(ka);
  b.to_canonical(kb);
  (a * b).to_canonical(kab);
  const g1_affine ap = scalar_mul(g1_jacobian::from_affine(p), ka, 4).to_affine();
  const g2_affine bq = scalar_mul(g2_jacobian::from_affine(q), kb, 4).to_affine();
  const fp12 eab = pairing(ap, bq);
  EXPECT_EQ(eab, e.pow(kab, 4));
  EXPECT_EQ(eab, pairing(scalar_mul(g1_jacobian::from_affine(p), kab, 4).to_affine(), q));
  // e(P1 + P2, Q) = e(P1, Q)·e(P2, Q)
  const g1_affine sum = (g1_jacobian::from_affine(ap) + p).to_affine();
  EXPECT_EQ(pairing(sum, bq), eab * pairing(p, bq));
}

TEST(pairing, identity_and_negation) {
  const g1_affine p = g1_generator();
  const g2_affine q = g2_generator();
  EXPECT_EQ(pairing(g1_affine::identity(), q), fp12::one());
  EXPECT_EQ(pairing(p, g2_affine::identity()), fp12::one());
  // e(−P, Q)·e(P, Q) = 1 through one shared final exponentiation
  const g1_affine ps[2] = {-p, p};
  const g2_affine qs[2] = {q, q};
  EXPECT_EQ(final_exponentiation(multi_miller_loop(ps, qs)), fp12::one());
  const g2_affine qs_bad[2] = {q, (g2_jacobian::from_affine(q).dbl()).to_affine()};
  EXPECT_NE(final_exponentiation(multi_miller_loop(ps, qs_bad)), fp12::one());
}

}  // namespace
}  // namespace zk
