// Fp6 and Fp12 arithmetic on random elements: ring laws, v³ = ξ, w² = v, inverses.
#include <gtest/gtest.h>

#include <random>

#include "pairing/fp12.hpp"

namespace zk {
namespace {

fp2 r2(std::mt19937_64& g) { return {fp::random(g), fp::random(g)}; }
fp6 r6(std::mt19937_64& g) { return {r2(g), r2(g), r2(g)}; }
fp12 r12(std::mt19937_64& g) { return {r6(g), r6(g)}; }

TEST(tower, fp6_laws_and_v_cubed_is_xi) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 g(seed);
  const fp6 v{fp2::zero(), fp2::one(), fp2::zero()};
  const fp6 xi{fp2{fp::one(), fp::one()}, fp2::zero(), fp2::zero()};
  EXPECT_EQ(v * v * v, xi);
  for (int i = 0; i < 20; ++i) {
    const fp6 a = r6(g), b = r6(g), c = r6(g);
    // schoolbook product in Fp2[v]/(v³ − ξ)
    const fp6 school{a.c0 * b.c0 + (a.c1 * b.c2 + a.c2 * b.c1).mul_by_xi(),
                     a.c0 * b.c1 + a.c1 * b.c0 + (a.c2 * b.c2).mul_by_xi(),
                     a.c0 * b.c2 + a.c1 * b.c1 + a.c2 * b.c0};
    EXPECT_EQ(a * b, school);
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a.mul_by_v(), a * v);
    EXPECT_EQ(a * a.inverse(), fp6::one());
  }
}

TEST(tower, fp12_laws_and_w_squared_is_v) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 g(seed);
  const fp12 w{fp6::zero(), fp6::one()};
  const fp12 v{fp6{fp2::zero(), fp2::one(), fp2::zero()}, fp6::zero()};
  EXPECT_EQ(w * w, v);
  for (int i = 0; i < 20; ++i) {
    const fp12 a = r12(g), b = r12(g), c = r12(g);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a * a.inverse(), fp12::one());
    const uint64_t five = 5;
    EXPECT_EQ(a.pow(&five, 1), a.sqr().sqr() * a);
  }
}

}  // namespace
}  // namespace zk
