// The device's 12×32-bit Montgomery field (gpu/ff/mont32.hpp) against the 6×64 one (variants/ff) on
// the host: every operation on random and edge inputs must give the 64-bit path's limbs exactly.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ff/fp.hpp"
#include "gpu/ff/mont32.hpp"

namespace zk::gpu {
namespace {

fp raw(std::initializer_list<uint64_t> limbs) {
  fp x{};
  size_t i = 0;
  for (uint64_t l : limbs) x.limbs[i++] = l;
  return x;
}

// Raw limbs < p (so valid elements in Montgomery form): 0, 1, 2, p−1, p−2, (p−1)/2, R mod p,
// R² mod p, words of all ones below p's top word, single high bits, the 32-bit word edges.
std::vector<fp> edge_values() {
  const auto& m = fp_params::modulus;
  std::vector<fp> v = {fp::zero(), fp::one(), raw({1}), raw({2}), raw({m[0] - 1, m[1], m[2], m[3], m[4], m[5]}),
                       raw({m[0] - 2, m[1], m[2], m[3], m[4], m[5]}),
                       raw({fp_params::r2[0], fp_params::r2[1], fp_params::r2[2], fp_params::r2[3], fp_params::r2[4],
                            fp_params::r2[5]}),
                       raw({~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, m[5] - 1}), raw({0, 0, 0, 0, 0, uint64_t{1} << 60}),
                       raw({0xffffffffULL, 0, 0xffffffff00000000ULL, 0, 0, 0}), raw({uint64_t{1} << 32}),
                       raw({0, 0, 0, 0, 0, 0xffffffffULL}), -fp::one()};
  fp half = raw({m[0] - 1, m[1], m[2], m[3], m[4], m[5]});  // (p − 1) / 2 by a one-bit shift
  for (size_t i = 0; i < 6; ++i) half.limbs[i] = half.limbs[i] >> 1 | (i + 1 < 6 ? half.limbs[i + 1] << 63 : 0);
  v.push_back(half);
  return v;
}

std::vector<fp> test_values(uint64_t seed) {
  std::vector<fp> v = edge_values();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 300; ++i) v.push_back(fp::random(rng));
  return v;
}

// Random values from a fresh seed (printed with any failure) and the edge values.
class gpu_mont32_ops : public ::testing::Test {
 protected:
  const uint64_t seed = std::random_device{}();
  const std::vector<fp> v = test_values(seed);

  ::testing::AssertionResult same(const fp32& got, const fp& want, const char* what, const fp& a, const fp& b) const {
    if (got.to_fp() == want) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << " of " << a.to_hex() << " and " << b.to_hex() << ": 32-bit "
                                         << got.to_fp().to_hex() << ", 64-bit " << want.to_hex() << " (seed " << seed
                                         << ")";
  }
};

TEST(gpu_mont32, words_are_the_64_bit_limbs_cut_in_halves) {
  const fp x = raw({0x0123456789abcdefULL, 0xfedcba9876543210ULL, 3, 4, 5, 6});
  const fp32 y = fp32::from_fp(x);
  EXPECT_EQ(y.limbs[0], 0x89abcdefu);
  EXPECT_EQ(y.limbs[1], 0x01234567u);
  EXPECT_EQ(y.limbs[2], 0x76543210u);
  EXPECT_EQ(y.limbs[3], 0xfedcba98u);
  EXPECT_EQ(y.limbs[10], 6u);
  EXPECT_EQ(y.to_fp(), x);
  EXPECT_EQ(fp32::one().to_fp(), fp::one());
  EXPECT_EQ(fp32::zero().to_fp(), fp::zero());
  EXPECT_TRUE(fp32::zero().is_zero());
  EXPECT_FALSE(fp32::from_fp(raw({0, 0, 0, 0, 0, 1})).is_zero());
  EXPECT_EQ(fp32::inv * static_cast<uint32_t>(fp_params::modulus[0]), 0xffffffffu) << "−p⁻¹ mod 2³²";
}

TEST_F(gpu_mont32_ops, product_and_square_equal_the_64_bit_path) {
  for (const fp& a : v) {
    const fp32 a32 = fp32::from_fp(a);
    ASSERT_TRUE(same(fp32::sqr_portable(a32), a.sqr(), "square", a, a));
    ASSERT_TRUE(same(a32.sqr(), a.sqr(), "sqr()", a, a));
    ASSERT_TRUE(same(fp32::mul_portable(a32, a32), a * a, "product with itself", a, a));
    for (size_t j = 0; j < v.size(); j += 7) {
      const fp& b = v[j];
      ASSERT_TRUE(same(fp32::mul_portable(a32, fp32::from_fp(b)), a * b, "product", a, b));
      ASSERT_TRUE(same(a32 * fp32::from_fp(b), a * b, "operator*", a, b));
    }
  }
}

TEST_F(gpu_mont32_ops, sums_differences_and_negations_equal_the_64_bit_path) {
  for (const fp& a : v) {
    const fp32 a32 = fp32::from_fp(a);
    ASSERT_TRUE(same(-a32, -a, "negation", a, a));
    ASSERT_TRUE(same(a32.dbl(), a.dbl(), "double", a, a));
    for (size_t j = 0; j < v.size(); j += 5) {
      const fp& b = v[j];
      const fp32 b32 = fp32::from_fp(b);
      ASSERT_TRUE(same(a32 + b32, a + b, "sum", a, b));
      ASSERT_TRUE(same(a32 - b32, a - b, "difference", a, b));
      EXPECT_EQ(a32 == b32, a == b);
    }
  }
}

// A long dependent chain mixing every operation, as a curve formula does: any slip compounds.
TEST(gpu_mont32, long_chains_stay_equal) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  fp x = fp::random(rng), y = fp::random(rng);
  fp32 x32 = fp32::from_fp(x), y32 = fp32::from_fp(y);
  for (int i = 0; i < 2000; ++i) {
    x = x * y + x.sqr() - y.dbl();
    y = -(y * x) + y;
    x32 = x32 * y32 + x32.sqr() - y32.dbl();
    y32 = -(y32 * x32) + y32;
    ASSERT_EQ(x32.to_fp(), x) << "step " << i;
    ASSERT_EQ(y32.to_fp(), y) << "step " << i;
  }
}

}  // namespace
}  // namespace zk::gpu
