// uint32 gadget: rotations, shifts, xor, ch, maj and multi-operand addition against native words.
#include "circuits/uint32.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "r1cs/test_cs.hpp"

namespace zk::circuits {
namespace {

uint32_t bits_value(const uint32_gadget& w) {
  uint32_t v = 0;
  for (int i = 0; i < 32; ++i) v |= uint32_t{w.bit(i).value()} << i;
  return v;
}

TEST(uint32, random_words_match_native_arithmetic) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int rep = 0; rep < 20; ++rep) {
    r1cs::test_cs<2> cs;
    const uint32_t a = rng(), b = rng(), c = rng(), k = rng();
    const uint32_gadget ga = uint32_gadget::alloc(cs, a), gb = uint32_gadget::alloc(cs, b);
    const uint32_gadget gc = uint32_gadget::alloc(cs, c), gk = uint32_gadget::constant(k);
    const int n = static_cast<int>(rng() % 32);
    EXPECT_EQ(bits_value(ga.rotr(n)), std::rotr(a, n));
    EXPECT_EQ(bits_value(ga.shr(n)), a >> n);
    EXPECT_EQ(bits_value(ga.xor_(cs, gk)), a ^ k);
    EXPECT_EQ(bits_value(uint32_gadget::sha256_ch(cs, ga, gb, gc)), (a & b) ^ (~a & c));
    EXPECT_EQ(bits_value(uint32_gadget::sha256_maj(cs, ga, gb, gc)), (a & b) ^ (a & c) ^ (b & c));
    const std::vector<uint32_gadget> ops = {ga, gb, gc, gk, ga.rotr(3)};
    const uint32_gadget sum = uint32_gadget::addmany(cs, ops);
    EXPECT_EQ(bits_value(sum), a + b + c + k + std::rotr(a, 3));
    EXPECT_EQ(sum.value(), a + b + c + k + std::rotr(a, 3));
    EXPECT_EQ(cs.which_is_unsatisfied(), std::nullopt);
  }
}

TEST(uint32, addmany_is_one_wide_row_plus_a_bit_per_result_bit) {
  r1cs::test_cs<0> cs;
  const std::vector<uint32_gadget> ops = {uint32_gadget::alloc(cs, 7), uint32_gadget::alloc(cs, 9),
                                          uint32_gadget::alloc(cs, 11)};
  const size_t before = cs.num_constraints();
  uint32_gadget::addmany(cs, ops);
  EXPECT_EQ(cs.num_constraints() - before, 34u + 1u);  // 3·(2³²−1) needs 34 bits
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(uint32, constants_add_without_constraints) {
  r1cs::test_cs<0> cs;
  const std::vector<uint32_gadget> ops = {uint32_gadget::constant(0xffffffff), uint32_gadget::constant(2)};
  EXPECT_EQ(uint32_gadget::addmany(cs, ops).value(), 1u);
  EXPECT_EQ(cs.num_constraints(), 0u);
}

}  // namespace
}  // namespace zk::circuits
