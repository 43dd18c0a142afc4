// Fr constants: modulus, Montgomery constants, 2-adicity 32, generator 7 and its 2³²-th root of unity.
#include "ff/fr.hpp"

#include <gtest/gtest.h>

#include "gmp_ref.hpp"

namespace zk {
namespace {

const mpz_class r("0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");

TEST(fr, montgomery_constants_match_gmp) {
  ASSERT_EQ(test::modulus<fr>(), r);
  const mpz_class R = mpz_class(1) << 256;
  EXPECT_EQ(test::to_mpz(fr::one()), 1);
  uint64_t one_limbs[4];
  for (int i = 0; i < 4; ++i) one_limbs[i] = fr_params::one[i];
  mpz_class one_raw;
  mpz_import(one_raw.get_mpz_t(), 4, -1, 8, 0, 0, one_limbs);
  EXPECT_EQ(one_raw, R % r);
  mpz_class r2;
  mpz_import(r2.get_mpz_t(), 4, -1, 8, 0, 0, fr_params::r2);
  EXPECT_EQ(r2, (R * R) % r);
  const mpz_class w64 = mpz_class(1) << 64;
  EXPECT_EQ(mpz_class((r * mpz_class(std::to_string(fr_params::inv))) % w64), w64 - 1);
}

TEST(fr, two_adicity_is_32) {
  const mpz_class r_minus_1 = r - 1;
  EXPECT_EQ(mpz_scan1(r_minus_1.get_mpz_t(), 0), fr_params::two_adicity);
}

TEST(fr, root_of_unity_has_order_exactly_two_to_the_32) {
  const fr w = fr::root_of_unity();
  fr x = w;
  for (int i = 0; i < 31; ++i) x = x.sqr();
  EXPECT_NE(x, fr::one()) << "ω^(2^31) must not be 1";
  EXPECT_EQ(x, -fr::one());
  EXPECT_EQ(x.sqr(), fr::one()) << "ω^(2^32) must be 1";
}

TEST(fr, root_of_unity_is_generator_to_the_odd_cofactor) {
  EXPECT_EQ(fr::generator(), fr::from_u64(7));
  const mpz_class t = (r - 1) >> 32;
  mpz_class want;
  mpz_powm(want.get_mpz_t(), mpz_class(7).get_mpz_t(), t.get_mpz_t(), r.get_mpz_t());
  EXPECT_EQ(test::to_mpz(fr::root_of_unity()), want);
  EXPECT_EQ(mpz_legendre(mpz_class(7).get_mpz_t(), r.get_mpz_t()), -1) << "7 must be a non-residue";
  EXPECT_FALSE(fr::generator().sqrt().has_value());
}

TEST(fr, decimal_of_modulus_minus_one) {
  EXPECT_EQ((-fr::one()).to_decimal(),
            "52435875175126190479447740508185965837690552500527637822603658699938581184512");
}

}  // namespace
}  // namespace zk
