// Fp2 arithmetic: field laws on random elements, inverse, square root, the sign convention.
#include <gtest/gtest.h>

#include <random>

#include "ec/fp2.hpp"

namespace zk {
namespace {

fp2 random_fp2(std::mt19937_64& rng) { return {fp::random(rng), fp::random(rng)}; }

class fp2_test : public ::testing::Test {
 protected:
  const uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
  void SetUp() override { RecordProperty("seed", std::to_string(seed)); }
};

TEST_F(fp2_test, mul_matches_schoolbook_and_u_squared_is_minus_one) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const fp2 u{fp::zero(), fp::one()};
  EXPECT_EQ(u.sqr(), -fp2::one());
  for (int i = 0; i < 50; ++i) {
    const fp2 a = random_fp2(rng), b = random_fp2(rng), c = random_fp2(rng);
    const fp2 schoolbook{a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0};
    EXPECT_EQ(a * b, schoolbook);
    EXPECT_EQ(a.sqr(), a * a);
    EXPECT_EQ(a * (b + c), a * b + a * c);
    const fp2 xi{fp::one(), fp::one()};
    EXPECT_EQ(a.mul_by_xi(), a * xi);
    if (!a.is_zero()) {
      EXPECT_EQ(a * a.inverse(), fp2::one());
    }
  }
  EXPECT_TRUE(fp2::zero().inverse().is_zero());
}

TEST_F(fp2_test, sqrt_of_squares_and_rejects_non_squares) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  int non_squares = 0;
  for (int i = 0; i < 20; ++i) {
    const fp2 a = random_fp2(rng);
    const auto r = a.sqr().sqrt();
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(*r == a || *r == -a);
    const fp2 b = random_fp2(rng);
    const auto s = b.sqrt();
    if (s) {
      EXPECT_EQ(s->sqr(), b);
    } else {
      ++non_squares;
    }
  }
  // Half of Fp2* are non-squares; 20 draws with none at all has probability 2⁻²⁰.
  EXPECT_GT(non_squares, 0);
  EXPECT_EQ(*fp2::zero().sqrt(), fp2::zero());
}

TEST_F(fp2_test, exactly_one_of_a_and_minus_a_is_largest) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (int i = 0; i < 50; ++i) {
    const fp2 a = random_fp2(rng);
    EXPECT_NE(a.lexicographically_largest(), (-a).lexicographically_largest());
    const fp2 real{a.c0, fp::zero()};
    EXPECT_NE(real.lexicographically_largest(), (-real).lexicographically_largest());
  }
  EXPECT_FALSE(fp2::zero().lexicographically_largest());
  EXPECT_FALSE(lexicographically_largest(fp::one()));
  EXPECT_TRUE(lexicographically_largest(-fp::one()));
}

}  // namespace
}  // namespace zk
