// Poseidon: round numbers from the paper's method, deterministic constants, MDS, gadget = native.
#include "circuits/poseidon.hpp"

#include <gtest/gtest.h>

#include <random>

#include "circuits/poseidon_native.hpp"
#include "r1cs/test_cs.hpp"

namespace zk::circuits {
namespace {

TEST(poseidon, round_numbers_for_the_three_arities) {
  // (R_F, R_P) with the security margin; neptune's BLS12-381 values for t = 9 and 12 are the same.
  EXPECT_EQ(poseidon_round_numbers(3).full, 8u);
  EXPECT_EQ(poseidon_round_numbers(3).partial, 56u);
  EXPECT_EQ(poseidon_round_numbers(9).full, 8u);
  EXPECT_EQ(poseidon_round_numbers(9).partial, 57u);
  EXPECT_EQ(poseidon_round_numbers(12).full, 8u);
  EXPECT_EQ(poseidon_round_numbers(12).partial, 57u);
}

TEST(poseidon, parameters_are_well_formed) {
  for (size_t arity : {2, 8, 11}) {
    const poseidon_params& p = poseidon_params_for(arity);
    ASSERT_EQ(p.width, arity + 1);
    ASSERT_EQ(p.round_constants.size(), p.rounds() * p.width);
    ASSERT_EQ(p.mds.size(), p.width * p.width);
    EXPECT_NE(p.rc(0, 0), p.rc(0, 1));
    // Cauchy entries: M_ij · (i + j + t) = 1.
    EXPECT_EQ(p.m(1, 2) * fr::from_u64(1 + 2 + p.width), fr::one());
    EXPECT_EQ(&p, &poseidon_params_for(arity)) << "generated once";
  }
}

TEST(poseidon, known_answer_is_stable) {
  // Pins the generated constants: any change to the generation method changes this value.
  const std::array<fr, 2> in = {fr::from_u64(1), fr::from_u64(2)};
  EXPECT_EQ(poseidon_hash(in).to_hex(), "0x0bd199f64f7b74ff6517045f69c88d4732d514e20d92c45809dd74dbec953a8a");
}

TEST(poseidon, gadget_equals_native_for_each_arity) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (size_t arity : {2, 8, 11}) {
    r1cs::test_cs<> cs;
    std::vector<fr> values;
    std::vector<num> inputs;
    for (size_t i = 0; i < arity; ++i) {
      values.push_back(fr::random(rng));
      inputs.push_back(i == 1 ? num::constant(values.back()) : num::alloc(cs, values.back()));
    }
    const num out = poseidon_hash(cs, std::span<const num>(inputs));
    EXPECT_EQ(out.value(), poseidon_hash(values)) << "arity " << arity;
    EXPECT_EQ(cs.which_is_unsatisfied(), std::nullopt) << "arity " << arity;
    const poseidon_params& p = poseidon_params_for(arity);
    const size_t t = p.width;
    // 3 constraints per S-box, t per round for the mix.
    EXPECT_EQ(cs.num_constraints(), 3 * (p.full_rounds * t + p.partial_rounds) + p.rounds() * t);
  }
}

}  // namespace
}  // namespace zk::circuits
