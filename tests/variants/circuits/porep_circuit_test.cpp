// The PoRep-shaped circuit: satisfied at tiny and small, pinned sizes, tampering caught with its
// path, and the same a/b/c digest in all eight A1 × A2 combinations.
#include "circuits/porep_circuit.hpp"

#include <gtest/gtest.h>

#include "circuits/assignment_digest.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/synthesize.hpp"
#include "r1cs/test_cs.hpp"

namespace zk::circuits {
namespace {

struct sizes {
  size_t constraints, inputs, aux;
};

sizes satisfied_sizes(const char* preset_name, uint64_t seed) {
  const porep_preset& p = find_porep_preset(preset_name);
  const porep_vanilla v = generate_porep_vanilla(p, seed);
  sizes s{};
  for (const auto& w : v.partitions) {
    r1cs::test_cs<> cs;
    porep_circuit{&p, &w}.synthesize(cs);
    EXPECT_EQ(cs.which_is_unsatisfied(), std::nullopt) << preset_name;
    s = {cs.num_constraints(), cs.num_inputs(), cs.num_aux()};
  }
  return s;
}

TEST(porep_circuit, tiny_is_satisfied_with_pinned_sizes) {
  const sizes s = satisfied_sizes("tiny", 1);
  EXPECT_EQ(s.constraints, 150071u);
  EXPECT_EQ(s.inputs, 1u + 3u + 1u);  // one, replica_id, comm_d, comm_r, one challenge
  EXPECT_EQ(s.aux, 149079u);
}

TEST(porep_circuit, small_is_satisfied_with_pinned_sizes) {
  const sizes s = satisfied_sizes("small", 2);
  EXPECT_EQ(s.constraints, 678214u);
  EXPECT_EQ(s.inputs, 1u + 3u + find_porep_preset("small").challenges);
}

TEST(porep_circuit, a_wrong_public_input_is_caught_where_it_is_checked) {
  const porep_preset& p = find_porep_preset("tiny");
  porep_vanilla v = generate_porep_vanilla(p, 3);
  v.partitions[0].comm_d += fr::one();
  r1cs::test_cs<> cs;
  porep_circuit{&p, &v.partitions[0]}.synthesize(cs);
  EXPECT_EQ(cs.which_is_unsatisfied(), "challenge 0/comm_d/equal");
}

TEST(porep_circuit, a_wrong_parent_label_breaks_the_column_opening) {
  const porep_preset& p = find_porep_preset("tiny");
  porep_vanilla v = generate_porep_vanilla(p, 4);
  v.partitions[0].challenges[0].parents[0].labels[0] += fr::one();
  r1cs::test_cs<> cs;
  porep_circuit{&p, &v.partitions[0]}.synthesize(cs);
  EXPECT_EQ(cs.which_is_unsatisfied(), "challenge 0/parent 0/equal");
}

template <size_t Cap, bool Presize>
std::string digest_of(const porep_vanilla& v, const porep_preset& p) {
  std::vector<porep_circuit> circuits;
  for (const auto& w : v.partitions) circuits.push_back({&p, &w});
  r1cs::counting_cs<Cap> count;
  count.alloc_input(r1cs::detail::no_name, fr::one());
  circuits[0].synthesize(count);
  const auto pas = r1cs::synthesize_partitions<Cap, Presize>(std::span<const porep_circuit>(circuits), count.hint());
  EXPECT_EQ(pas[0].a.size(), count.hint().num_constraints);
  EXPECT_EQ(pas[0].aux_assignment.size(), count.hint().num_aux);
  return assignment_digest(pas);
}

TEST(porep_circuit, digest_is_identical_for_every_a1_a2_combination) {
  const porep_preset& p = find_porep_preset("tiny");
  const porep_vanilla v = generate_porep_vanilla(p, 6);
  const std::string want = digest_of<0, false>(v, p);
  EXPECT_EQ(want.size(), 64u);
  // Pinned: the gadgets may change how they build their combinations, never what they enforce.
  EXPECT_EQ(want, "fae092ca53dffdc733fd3c09d2af86cd9719042bdff524a93b6a25e739148df7");
  EXPECT_EQ((digest_of<0, true>(v, p)), want);
  EXPECT_EQ((digest_of<1, false>(v, p)), want);
  EXPECT_EQ((digest_of<1, true>(v, p)), want);
  EXPECT_EQ((digest_of<2, false>(v, p)), want);
  EXPECT_EQ((digest_of<2, true>(v, p)), want);
  EXPECT_EQ((digest_of<4, false>(v, p)), want);
  EXPECT_EQ((digest_of<4, true>(v, p)), want);
  EXPECT_NE((digest_of<0, false>(generate_porep_vanilla(p, 7), p)), want) << "the digest must see the witness";
}

TEST(porep_circuit, shape_is_near_the_real_porep) {
  const porep_preset& p = find_porep_preset("small");
  const porep_vanilla v = generate_porep_vanilla(p, 8);
  r1cs::counting_cs<> count;
  porep_circuit{&p, &v.partitions[0]}.synthesize(count);
  const r1cs::lc_shape s = count.shape();
  // Real per-partition figures: A 2.4, B 1.0, C 2.2 terms per row; A aux 99.7 %, B aux 25.4 %.
  EXPECT_NEAR(s.mean_terms(0), 2.4, 0.6);
  EXPECT_NEAR(s.mean_terms(1), 1.0, 0.2);
  EXPECT_NEAR(s.mean_terms(2), 2.2, 0.6);
  EXPECT_GT(s.a_aux_density(), 0.95);
  EXPECT_NEAR(s.b_aux_density(), 0.254, 0.15);
}

}  // namespace
}  // namespace zk::circuits
