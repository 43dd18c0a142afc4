// Pipelined proving: every partition's proof verifies, inspect sees them in order, errors propagate.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "groth16/pipeline.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "test_circuits.hpp"

namespace zk::groth16 {
namespace {

TEST(pipeline, proofs_verify_and_partitions_arrive_in_order) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<testing::chain_circuit> parts;
  for (int i = 0; i < 4; ++i) parts.push_back({fr::random(rng), 60, 1});
  const parameters p = setup(parts[0], 4);
  std::vector<size_t> seen;
  std::vector<std::vector<fr>> pubs;
  pipeline_timings t;
  const auto proofs = prove_pipelined(
      p, parts.size(), [&](size_t i) { return testing::synthesize_one(parts[i]); },
      [&](size_t i, const r1cs::proving_assignment<0>& pa) {
        seen.push_back(i);
        pubs.push_back(testing::public_of(pa));
      },
      rng, {msm_window_policy::per_msm, bg2_mode::parallel, 2}, &t);
  ASSERT_EQ(proofs.size(), 4u);
  EXPECT_EQ(seen, (std::vector<size_t>{0, 1, 2, 3}));
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(pubs[i], parts[i].public_inputs());
    EXPECT_TRUE(verify(p.vk, proofs[i], pubs[i])) << i;
  }
  EXPECT_GT(t.synthesis_s, 0.0);
}

TEST(pipeline, a_failing_synthesis_is_rethrown) {
  std::mt19937_64 rng(1);
  const testing::chain_circuit c{fr::one(), 10, 0};
  const parameters p = setup(c, 4);
  auto synth = [&](size_t i) {
    if (i == 1) throw std::runtime_error("synthesis failed");
    return testing::synthesize_one(c);
  };
  EXPECT_THROW(prove_pipelined(p, 3, synth, [](size_t, const auto&) {}, rng), std::runtime_error);
}

}  // namespace
}  // namespace zk::groth16
