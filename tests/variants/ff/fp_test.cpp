// Fp constants: modulus, Montgomery constants, p ≡ 3 mod 4 (one-exponentiation square roots).
#include "ff/fp.hpp"

#include <gtest/gtest.h>

#include "gmp_ref.hpp"

namespace zk {
namespace {

const mpz_class p(
    "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");

TEST(fp, montgomery_constants_match_gmp) {
  ASSERT_EQ(test::modulus<fp>(), p);
  const mpz_class R = mpz_class(1) << 384;
  mpz_class one_raw, r2;
  mpz_import(one_raw.get_mpz_t(), 6, -1, 8, 0, 0, fp_params::one);
  mpz_import(r2.get_mpz_t(), 6, -1, 8, 0, 0, fp_params::r2);
  EXPECT_EQ(one_raw, R % p);
  EXPECT_EQ(r2, (R * R) % p);
  const mpz_class w64 = mpz_class(1) << 64;
  EXPECT_EQ(mpz_class((p * mpz_class(std::to_string(fp_params::inv))) % w64), w64 - 1);
  EXPECT_EQ(mpz_class(p % 4), 3);
}

TEST(fp, minus_one_is_a_non_residue) {
  // p ≡ 3 mod 4 ⇒ −1 is not a square; 4 is.
  EXPECT_FALSE((-fp::one()).sqrt().has_value());
  const auto two = fp::from_u64(4).sqrt();
  ASSERT_TRUE(two.has_value());
  EXPECT_TRUE(*two == fp::from_u64(2) || *two == -fp::from_u64(2));
}

TEST(fp, bytes_are_48_big_endian) {
  const auto bytes = fp::from_u64(0x0102).to_bytes_be();
  ASSERT_EQ(bytes.size(), 48u);
  EXPECT_EQ(bytes[47], 0x02);
  EXPECT_EQ(bytes[46], 0x01);
  EXPECT_EQ(bytes[0], 0x00);
}

}  // namespace
}  // namespace zk
