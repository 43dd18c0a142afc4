// proving_assignment: a, b, c equal the LC evaluations, densities mark exactly the touched variables.
#include "r1cs/proving_assignment.hpp"

#include <gtest/gtest.h>

#include "r1cs/synthesize.hpp"
#include "r1cs/test_cs.hpp"
#include "toy_circuit.hpp"

namespace zk::r1cs {
namespace {

TEST(proving_assignment, evaluates_every_row_like_the_test_system) {
  const test::toy_circuit circuit{.seed = 11, .steps = 200};
  proving_assignment<0> pa;
  const test_cs<0> cs = test::synthesize_beside_test_cs(circuit, pa);
  ASSERT_EQ(pa.num_constraints(), cs.num_constraints());
  ASSERT_EQ(pa.aux_assignment.size(), cs.num_aux());
  for (size_t i = 0; i < pa.num_constraints(); ++i) ASSERT_EQ(pa.a[i] * pa.b[i], pa.c[i]) << i;
}

TEST(proving_assignment, densities_mark_touched_variables_only) {
  using lc = proving_assignment<1>::lc;
  proving_assignment<1> pa;
  pa.alloc_input(detail::no_name, fr::one());
  const variable in = pa.alloc_input(detail::no_name, fr::from_u64(3));
  const variable x = pa.alloc(detail::no_name, fr::from_u64(2));
  const variable y = pa.alloc(detail::no_name, fr::from_u64(6));
  pa.alloc(detail::no_name, fr::from_u64(9));  // never used
  pa.enforce(detail::no_name, lc{} + x, lc{} + in, lc{} + y);
  EXPECT_EQ(pa.a[0], fr::from_u64(2));
  EXPECT_EQ(pa.b[0], fr::from_u64(3));
  EXPECT_EQ(pa.c[0], fr::from_u64(6));
  EXPECT_EQ(pa.a_aux_density.total_density(), 1u);
  EXPECT_TRUE(pa.a_aux_density.get(0));
  EXPECT_FALSE(pa.a_aux_density.get(1));
  EXPECT_EQ(pa.b_aux_density.total_density(), 0u);
  EXPECT_EQ(pa.b_input_density.total_density(), 1u);
  EXPECT_TRUE(pa.b_input_density.get(1));
  EXPECT_EQ(pa.a_aux_density.size(), 3u);
}

TEST(proving_assignment, reserve_sizes_every_vector_from_the_hint) {
  proving_assignment<0> pa;
  pa.reserve({.num_inputs = 5, .num_aux = 1000, .num_constraints = 3000});
  EXPECT_GE(pa.a.capacity(), 3000u);
  EXPECT_GE(pa.b.capacity(), 3000u);
  EXPECT_GE(pa.c.capacity(), 3000u);
  EXPECT_GE(pa.aux_assignment.capacity(), 1000u);
  EXPECT_GE(pa.input_assignment.capacity(), 5u);
  EXPECT_GE(pa.a_aux_density.capacity(), 1000u);
  EXPECT_TRUE(pa.a.empty());
}

}  // namespace
}  // namespace zk::r1cs
