// backend::cuda against backend::cpu: the same H, the same proofs for the same rng, proofs that
// verify (ctest label `gpu`; skipped on a host without a usable device).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "gpu/api.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "test_circuits.hpp"

namespace zk::groth16 {
namespace {

using testing::chain_circuit;

class gpu_prover_test : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!gpu::device_available(&why)) GTEST_SKIP() << "no GPU: " << why;
  }
  const uint64_t seed = std::random_device{}();
};

TEST_F(gpu_prover_test, device_quotient_equals_the_cpu_one) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng{seed};
  const chain_circuit c{fr::random(rng), 700, 2};
  const auto pa = testing::synthesize_one(c);
  const size_t n = domain_size_for(pa.a.size());
  prover_timings t;
  EXPECT_EQ(compute_h_gpu(view_of(pa), n, t), compute_h(view_of(pa), n, 2));
  EXPECT_GT(t.gpu_s, 0.0);
}

TEST_F(gpu_prover_test, cuda_proofs_equal_cpu_proofs_and_verify_in_every_mode) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng{seed};
  const chain_circuit shape{fr::from_u64(2), 600, 3};
  const parameters p = setup(shape, 4);
  std::vector<r1cs::proving_assignment<0>> pas;
  std::vector<std::vector<fr>> pubs;
  for (int i = 0; i < 2; ++i) {
    pas.push_back(testing::synthesize_one(chain_circuit{fr::random(rng), 600, 3}));
    pubs.push_back(testing::public_of(pas.back()));
  }
  std::vector<assignment_view> views;
  for (const auto& pa : pas) views.push_back(view_of(pa));
  for (bg2_mode bg2 : {bg2_mode::sequential, bg2_mode::parallel}) {
    for (msm_window_policy w : {msm_window_policy::shared, msm_window_policy::per_msm}) {
      SCOPED_TRACE(std::string(to_string(bg2)) + " / " + to_string(w));
      std::mt19937_64 rng_cpu{seed}, rng_gpu{seed};
      const auto cpu = prove_batch(p, views, rng_cpu, {w, bg2, 2, backend::cpu});
      prover_timings t;
      const auto cuda = prove_batch(p, views, rng_gpu, {w, bg2, 2, backend::cuda}, &t);
      ASSERT_EQ(cuda.size(), 2u);
      for (size_t i = 0; i < 2; ++i) {
        EXPECT_TRUE(verify(p.vk, cuda[i], pubs[i])) << "partition " << i;
        EXPECT_EQ(cuda[i].a, cpu[i].a) << "partition " << i;
        EXPECT_EQ(cuda[i].b, cpu[i].b) << "partition " << i;
        EXPECT_EQ(cuda[i].c, cpu[i].c) << "partition " << i;
      }
      EXPECT_EQ(t.wbits_h, gpu::resolve_wbits({.window = w, .shared_npoints = (p.h.size() + p.l.size() + p.a.size() +
                                                                               p.b_g1.size() + p.b_g2.size()) / 5},
                                              p.h.size()));
      EXPECT_GT(t.gpu_s, 0.0);
      EXPECT_GT(t.transfer_s, 0.0);
      EXPECT_GT(t.transfer_hidden_s + t.transfer_exposed_s, 0.0);
      EXPECT_LE(t.transfer_hidden_s + t.transfer_exposed_s, t.transfer_s * (1 + 1e-9)) << "parts of transfer_s";
    }
  }
}

// The MSM's pipelined copies both ways: staged through the pinned slots (B1 off) and straight from
// the proof's registered buffers (B1 on) give the CPU's proofs.
TEST_F(gpu_prover_test, cuda_proofs_equal_cpu_proofs_with_and_without_host_registration) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng{seed};
  const chain_circuit shape{fr::from_u64(3), 900, 2};
  const parameters p = setup(shape, 5);
  const auto pa = testing::synthesize_one(chain_circuit{fr::random(rng), 900, 2});
  const assignment_view v = view_of(pa);
  std::mt19937_64 rng_cpu{seed};
  const auto cpu = prove_batch(p, std::span(&v, 1), rng_cpu, {.backend = backend::cpu});
  for (bool pin : {false, true}) {
    SCOPED_TRACE(pin ? "B1 on" : "B1 off");
    std::mt19937_64 rng_gpu{seed};
    prover_timings t;
    const auto cuda = prove_batch(p, std::span(&v, 1), rng_gpu, {.backend = backend::cuda, .host_register = pin}, &t);
    EXPECT_EQ(cuda[0].a, cpu[0].a);
    EXPECT_EQ(cuda[0].b, cpu[0].b);
    EXPECT_EQ(cuda[0].c, cpu[0].c);
    if (pin && t.host_register_error.empty()) {
      EXPECT_GT(t.host_register_s, 0.0);
    }
  }
}

}  // namespace
}  // namespace zk::groth16
