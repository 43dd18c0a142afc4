// linear_combination: operator algebra splits inputs from aux, merges repeated variables, scales.
#include "r1cs/linear_combination.hpp"

#include <gtest/gtest.h>

namespace zk::r1cs {
namespace {

TEST(linear_combination, operators_merge_and_split_by_kind) {
  using lc = linear_combination<2>;
  const variable x = variable::aux(3), y = variable::aux(1), in = variable::input(2);
  const lc l = lc{} + x + y - in + fr::from_u64(5) * x - y;
  ASSERT_EQ(l.inputs().size(), 1u);
  ASSERT_EQ(l.aux().size(), 2u);
  auto it = l.aux().begin();
  EXPECT_EQ(it->index, 1u);
  EXPECT_TRUE(it->coeff.is_zero());  // y − y stays as a zero term, as in bellman
  ++it;
  EXPECT_EQ(it->index, 3u);
  EXPECT_EQ(it->coeff, fr::from_u64(6));
  EXPECT_EQ(l.inputs().begin()->coeff, -fr::one());
  EXPECT_EQ(l.size(), 3u);
}

TEST(linear_combination, adding_a_scaled_combination) {
  using lc = linear_combination<0>;
  const lc a = lc{} + variable::aux(0) + fr::from_u64(2) * variable::input(0);
  lc b = lc{} + variable::aux(0);
  b.add(fr::from_u64(3), a);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b.aux().begin()->coeff, fr::from_u64(4));
  EXPECT_EQ(b.inputs().begin()->coeff, fr::from_u64(6));
  const lc d = b - a;
  EXPECT_EQ(d.aux().begin()->coeff, fr::from_u64(3));
}

TEST(linear_combination, default_capacity_comes_from_the_a1_toggle) {
  EXPECT_EQ(linear_combination<>::inline_cap, size_t{ABTEST_A1_INLINE_CAP});
}

}  // namespace
}  // namespace zk::r1cs
