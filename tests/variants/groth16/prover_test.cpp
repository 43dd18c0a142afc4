// Groth16 end to end: proofs verify in every A4 × D4 mode and for batches; bad proofs do not.
#include <gtest/gtest.h>

#include <random>

#include "abtest/toggles/a4.hpp"
#include "groth16/prover.hpp"
#include "msm/msm.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "test_circuits.hpp"

namespace zk::groth16 {
namespace {

using testing::chain_circuit;
using testing::cubic_circuit;

class prover_test : public ::testing::Test {
 protected:
  const uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
};

TEST_F(prover_test, cubic_proof_verifies_and_tampering_is_rejected) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const cubic_circuit c{fr::from_u64(3)};
  const parameters p = setup(c, 1);
  EXPECT_EQ(p.num_inputs, 2u);
  EXPECT_EQ(p.num_aux, 3u);
  EXPECT_EQ(p.num_constraints, 5u);  // 3 + one per input
  EXPECT_EQ(p.domain_size, 8u);
  const auto pa = testing::synthesize_one(c);
  const assignment_view v = view_of(pa);
  const proof pr = prove_batch(p, std::span(&v, 1), rng)[0];
  const std::vector<fr> pub = {c.out()};
  EXPECT_TRUE(verify(p.vk, pr, pub));

  const std::vector<fr> wrong = {c.out() + fr::one()};
  EXPECT_FALSE(verify(p.vk, pr, wrong));
  EXPECT_FALSE(verify(p.vk, pr, std::vector<fr>{}));
  proof bad = pr;
  bad.a = (g1_jacobian::from_affine(bad.a) + g1_generator()).to_affine();
  EXPECT_FALSE(verify(p.vk, bad, pub));
  bad = pr;
  bad.c = -bad.c;
  EXPECT_FALSE(verify(p.vk, bad, pub));
  bad = pr;
  bad.b.y = bad.b.y + fp2::one();  // off the curve
  EXPECT_FALSE(verify(p.vk, bad, pub));
}

TEST_F(prover_test, a_witness_that_breaks_a_constraint_gives_a_rejected_proof) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const cubic_circuit c{fr::from_u64(3)};
  const parameters p = setup(c, 2);
  auto pa = testing::synthesize_one(c);
  pa.c[1] += fr::one();  // x²·x ≠ x³ in row 1
  const assignment_view v = view_of(pa);
  const proof pr = prove_batch(p, std::span(&v, 1), rng)[0];
  EXPECT_FALSE(verify(p.vk, pr, std::vector<fr>{c.out()}));
}

TEST_F(prover_test, batches_verify_in_every_bg2_and_window_mode) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const chain_circuit shape{fr::from_u64(2), 300, 3};
  const parameters p = setup(shape, 3);
  EXPECT_EQ(p.domain_size, 512u);
  std::vector<r1cs::proving_assignment<0>> pas;
  std::vector<std::vector<fr>> pubs;
  for (uint64_t i = 0; i < 3; ++i) {
    const chain_circuit c{fr::random(rng), 300, 3};
    pas.push_back(testing::synthesize_one(c));
    pubs.push_back(testing::public_of(pas.back()));
    EXPECT_EQ(pubs.back(), c.public_inputs());
  }
  std::vector<assignment_view> views;
  for (const auto& pa : pas) views.push_back(view_of(pa));
  for (bg2_mode bg2 : {bg2_mode::sequential, bg2_mode::parallel}) {
    for (msm_window_policy w : {msm_window_policy::shared, msm_window_policy::per_msm}) {
      SCOPED_TRACE(std::string(to_string(bg2)) + " / " + to_string(w));
      prover_timings t;
      const auto proofs = prove_batch(p, views, rng, {w, bg2, 3}, &t);
      ASSERT_EQ(proofs.size(), 3u);
      for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(verify(p.vk, proofs[i], pubs[i])) << "partition " << i;
      EXPECT_FALSE(verify(p.vk, proofs[0], pubs[1]));
      if (w == msm_window_policy::shared) EXPECT_EQ(t.wbits_h, t.wbits_b);
      else EXPECT_EQ(t.wbits_h, msm_window_bits(p.h.size()));
    }
  }
}

TEST_F(prover_test, quotient_times_z_matches_a_times_b_minus_c_at_a_random_point) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const chain_circuit c{fr::from_u64(5), 40, 1};
  const auto pa = testing::synthesize_one(c);
  const size_t n = domain_size_for(pa.a.size());
  const std::vector<fr> h = compute_h(view_of(pa), n, 2);
  ASSERT_EQ(h.size(), n - 1);
  // Interpolate a, b, c on the domain through the Lagrange basis at x, then compare.
  const fr x = fr::random(rng);
  const std::vector<fr> lag = lagrange_at(x, n);
  fr ax = fr::zero(), bx = fr::zero(), cx = fr::zero(), hx = fr::zero();
  for (size_t i = 0; i < pa.a.size(); ++i) {
    ax += pa.a[i] * lag[i];
    bx += pa.b[i] * lag[i];
    cx += pa.c[i] * lag[i];
  }
  for (size_t i = h.size(); i-- > 0;) hx = hx * x + h[i];
  EXPECT_EQ(ax * bx - cx, hx * (x.pow(n) - fr::one()));
}

TEST_F(prover_test, setup_is_deterministic_and_mismatched_assignments_throw) {
  const cubic_circuit c{fr::from_u64(3)};
  const parameters p1 = setup(c, 9), p2 = setup(c, 9), p3 = setup(c, 10);
  EXPECT_EQ(p1.vk.alpha_g1, p2.vk.alpha_g1);
  EXPECT_EQ(p1.h, p2.h);
  EXPECT_NE(p1.vk.alpha_g1, p3.vk.alpha_g1);
  EXPECT_EQ(p1.circuit_digest, circuit_digest(cubic_circuit{fr::from_u64(4)}));  // witness-independent
  EXPECT_NE(p1.circuit_digest, circuit_digest(chain_circuit{fr::one(), 3, 0}));
  const auto other = testing::synthesize_one(chain_circuit{fr::one(), 3, 0});
  const assignment_view v = view_of(other);
  EXPECT_THROW(prove_batch(p1, std::span(&v, 1), rng), std::invalid_argument);
}

TEST(prover_defaults, bg2_mode_follows_the_a4_toggle) {
  EXPECT_EQ(default_bg2_mode(), ABTEST_A4_PARALLEL_BG2 ? bg2_mode::parallel : bg2_mode::sequential);
  EXPECT_EQ(prover_options{}.bg2, default_bg2_mode());
  EXPECT_EQ(prover_options{}.window, default_msm_window_policy());
}

}  // namespace
}  // namespace zk::groth16
