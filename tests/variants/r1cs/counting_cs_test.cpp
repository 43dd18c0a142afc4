// counting_cs: the same counts as the test system, and the LC shape of a hand-built system.
#include "r1cs/counting_cs.hpp"

#include <gtest/gtest.h>

#include "r1cs/test_cs.hpp"
#include "toy_circuit.hpp"

namespace zk::r1cs {
namespace {

TEST(counting_cs, counts_match_the_test_system) {
  const test::toy_circuit circuit{.seed = 5, .steps = 150};
  counting_cs<0> count;
  const test_cs<0> cs = test::synthesize_beside_test_cs(circuit, count);
  const size_hint h = count.hint();
  EXPECT_EQ(h.num_inputs, cs.num_inputs());
  EXPECT_EQ(h.num_aux, cs.num_aux());
  EXPECT_EQ(h.num_constraints, cs.num_constraints() + cs.num_inputs());
}

TEST(counting_cs, shape_of_a_hand_built_system) {
  using lc = counting_cs<0>::lc;
  counting_cs<0> cs;
  const variable x = cs.alloc(detail::no_name, fr::zero());
  const variable y = cs.alloc(detail::no_name, fr::zero());
  const variable z = cs.alloc(detail::no_name, fr::zero());
  cs.alloc(detail::no_name, fr::zero());
  cs.enforce(detail::no_name, lc{} + x + y + z + counting_cs<0>::one(), lc{} + y, lc{} + z);
  cs.enforce(detail::no_name, lc{} + x, lc{} + counting_cs<0>::one(), lc{} + z + y);
  const lc_shape s = cs.shape();
  EXPECT_EQ(s.rows, 2u);
  EXPECT_DOUBLE_EQ(s.mean_terms(0), 2.5);
  EXPECT_DOUBLE_EQ(s.mean_terms(1), 1.0);
  EXPECT_DOUBLE_EQ(s.mean_terms(2), 1.5);
  EXPECT_DOUBLE_EQ(s.short_share(0), 0.5);
  EXPECT_DOUBLE_EQ(s.short_share(2), 1.0);
  EXPECT_DOUBLE_EQ(s.a_aux_density(), 0.75);
  EXPECT_DOUBLE_EQ(s.b_aux_density(), 0.25);
}

}  // namespace
}  // namespace zk::r1cs
