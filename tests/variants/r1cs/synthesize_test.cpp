// synthesize_partitions: identical a/b/c in all eight A1 × A2 combinations; A2 reserves up front.
#include "r1cs/synthesize.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "r1cs/counting_cs.hpp"
#include "toy_circuit.hpp"

namespace zk::r1cs {
namespace {

const std::array<test::toy_circuit, 3> partitions = {
    test::toy_circuit{.seed = 21, .steps = 250}, test::toy_circuit{.seed = 22, .steps = 250},
    test::toy_circuit{.seed = 23, .steps = 250}};

size_hint hint_of(const test::toy_circuit& c) {
  counting_cs<0> count;
  count.alloc_input(detail::no_name, fr::one());
  c.synthesize(count);
  return count.hint();
}

template <size_t Cap, bool Presize>
std::vector<std::vector<fr>> abc() {
  auto pas = synthesize_partitions<Cap, Presize>(std::span(partitions), hint_of(partitions[0]));
  std::vector<std::vector<fr>> out;
  for (auto& pa : pas) {
    out.push_back(pa.a);
    out.push_back(pa.b);
    out.push_back(pa.c);
    out.push_back(pa.aux_assignment);
  }
  return out;
}

TEST(synthesize, every_a1_a2_combination_gives_the_same_assignment) {
  const auto want = abc<0, false>();
  ASSERT_EQ(want.size(), 12u);
  EXPECT_EQ(want[0].size(), 252u);  // 250 steps + 2 input constraints
  EXPECT_EQ((abc<0, true>()), want);
  EXPECT_EQ((abc<1, false>()), want);
  EXPECT_EQ((abc<1, true>()), want);
  EXPECT_EQ((abc<2, false>()), want);
  EXPECT_EQ((abc<2, true>()), want);
  EXPECT_EQ((abc<4, false>()), want);
  EXPECT_EQ((abc<4, true>()), want);
}

TEST(synthesize, presize_reserves_every_partition_exactly_and_nothing_grows) {
  const size_hint h = hint_of(partitions[0]);
  const auto pas = synthesize_partitions<0, true>(std::span(partitions), h);
  for (const auto& pa : pas) {
    EXPECT_EQ(pa.a.size(), h.num_constraints);
    EXPECT_EQ(pa.a.capacity(), h.num_constraints);
    EXPECT_EQ(pa.c.capacity(), h.num_constraints);
    EXPECT_EQ(pa.aux_assignment.capacity(), h.num_aux);
  }
}

TEST(synthesize, input_constraints_follow_the_circuit) {
  const auto pas = synthesize_partitions<0, false>(std::span(partitions).first(1), hint_of(partitions[0]));
  const auto& pa = pas[0];
  ASSERT_EQ(pa.input_assignment.size(), 2u);
  EXPECT_EQ(pa.a[pa.a.size() - 2], fr::one());
  EXPECT_EQ(pa.a.back(), pa.input_assignment[1]);
  EXPECT_TRUE(pa.b.back().is_zero());
  EXPECT_EQ(pa.b_input_density.total_density() + 0, pa.b_input_density.total_density());
}

}  // namespace
}  // namespace zk::r1cs
