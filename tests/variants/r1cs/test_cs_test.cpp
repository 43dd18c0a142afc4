// test_cs: a correct witness satisfies; a tampered one is reported with its namespace path.
#include "r1cs/test_cs.hpp"

#include <gtest/gtest.h>

#include "toy_circuit.hpp"

namespace zk::r1cs {
namespace {

TEST(test_cs, honest_witness_is_satisfied) {
  test_cs<2> cs;
  test::toy_circuit{.seed = 3, .steps = 100}.synthesize(cs);
  EXPECT_EQ(cs.num_constraints(), 100u);
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(test_cs, tampered_witness_names_the_broken_constraint) {
  test_cs<2> cs;
  test::toy_circuit{.seed = 3, .steps = 100}.synthesize(cs);
  cs.set_aux_value(41, cs.aux_value(41) + fr::one());  // the product of step 41
  const auto which = cs.which_is_unsatisfied();
  ASSERT_TRUE(which.has_value());
  EXPECT_EQ(*which, "step 41/a * v = p");
  EXPECT_FALSE(cs.is_satisfied());
}

TEST(test_cs, namespaces_nest_and_unwind) {
  using lc = test_cs<0>::lc;
  test_cs<0> cs;
  const variable x = cs.alloc(detail::no_name, fr::from_u64(2));
  {
    namespace_guard outer(cs, [] { return "outer"; });
    namespace_guard inner(cs, [] { return "inner"; });
    cs.enforce([] { return "bad"; }, lc{} + x, lc{} + x, lc{} + x);
  }
  cs.enforce([] { return "top"; }, lc{} + x, lc{} + x, lc{} + x);
  EXPECT_EQ(cs.which_is_unsatisfied(), "outer/inner/bad");
}

}  // namespace
}  // namespace zk::r1cs
