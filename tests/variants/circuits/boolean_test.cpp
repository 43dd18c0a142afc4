// Boolean gadgets: every operation over every kind of operand (constant, allocated, negated) gives
// the right value and a satisfied system; a flipped result is caught.
#include "circuits/boolean.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "r1cs/test_cs.hpp"

namespace zk::circuits {
namespace {

using cs_t = r1cs::test_cs<0>;

// All six ways to present a bit of value v.
std::vector<boolean> forms(cs_t& cs, bool v) {
  return {boolean::constant(v), boolean::alloc(cs, v), !boolean::alloc(cs, !v)};
}

TEST(boolean, operations_over_all_kinds_match_truth_tables) {
  for (int bits = 0; bits < 8; ++bits) {
    const bool a = bits & 1, b = bits & 2, c = bits & 4;
    cs_t cs;
    for (const auto& fa : forms(cs, a))
      for (const auto& fb : forms(cs, b)) {
        EXPECT_EQ(boolean::xor_(cs, fa, fb).value(), a != b);
        EXPECT_EQ(boolean::and_(cs, fa, fb).value(), a && b);
        for (const auto& fc : forms(cs, c)) {
          EXPECT_EQ(boolean::sha256_ch(cs, fa, fb, fc).value(), a ? b : c);
          EXPECT_EQ(boolean::sha256_maj(cs, fa, fb, fc).value(), (a + b + c) >= 2);
        }
      }
    EXPECT_EQ(cs.which_is_unsatisfied(), std::nullopt) << "bits " << bits;
  }
}

TEST(boolean, a_wrong_result_is_caught) {
  cs_t cs;
  const boolean x = boolean::alloc(cs, true), y = boolean::alloc(cs, false);
  const boolean z = boolean::xor_(cs, x, y);
  ASSERT_TRUE(cs.is_satisfied());
  cs.set_aux_value(z.var().index, fr::zero());
  EXPECT_EQ(cs.which_is_unsatisfied(), "xor");
}

TEST(boolean, booleanity_rejects_two) {
  cs_t cs;
  const boolean x = boolean::alloc(cs, true);
  cs.set_aux_value(x.var().index, fr::from_u64(2));
  EXPECT_EQ(cs.which_is_unsatisfied(), "booleanity");
}

}  // namespace
}  // namespace zk::circuits
