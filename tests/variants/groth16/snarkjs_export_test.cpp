// snarkjs JSON export: structure, curve name, point layout, decimal field elements.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_export.hpp"
#include "test_circuits.hpp"

namespace zk::groth16 {
namespace {

using nlohmann::json;

TEST(snarkjs_export, files_have_the_snarkjs_layout) {
  const testing::cubic_circuit c{fr::from_u64(3)};
  const parameters p = setup(c, 1);
  const auto pa = testing::synthesize_one(c);
  const assignment_view v = view_of(pa);
  std::mt19937_64 rng(1);
  const proof pr = prove_batch(p, std::span(&v, 1), rng)[0];
  const auto dir = std::filesystem::temp_directory_path() / ("zk_snarkjs_export_" + std::to_string(::getpid()));
  const std::vector<fr> pub = {c.out()};
  export_snarkjs(dir, p.vk, pr, pub);

  const json vk = json::parse(std::ifstream(dir / "verification_key.json"));
  EXPECT_EQ(vk["protocol"], "groth16");
  EXPECT_EQ(vk["curve"], "bls12381");
  EXPECT_EQ(vk["nPublic"], 1);
  ASSERT_EQ(vk["IC"].size(), 2u);
  EXPECT_EQ(vk["vk_alpha_1"], json::array({p.vk.alpha_g1.x.to_decimal(), p.vk.alpha_g1.y.to_decimal(), "1"}));
  EXPECT_EQ(vk["vk_delta_2"][0], json::array({p.vk.delta_g2.x.c0.to_decimal(), p.vk.delta_g2.x.c1.to_decimal()}));
  EXPECT_EQ(vk["vk_delta_2"][2], json::array({"1", "0"}));

  const json proof_json = json::parse(std::ifstream(dir / "proof.json"));
  EXPECT_EQ(proof_json["pi_b"][1], json::array({pr.b.y.c0.to_decimal(), pr.b.y.c1.to_decimal()}));
  EXPECT_EQ(proof_json["pi_c"][0], pr.c.x.to_decimal());
  EXPECT_EQ(json::parse(std::ifstream(dir / "public.json")), json::array({"35"}));  // 3³ + 3 + 5
  std::filesystem::remove_all(dir);

  EXPECT_EQ(json::parse(snarkjs_proof_json({g1_affine::identity(), g2_affine::identity(), g1_affine::identity()}))["pi_a"],
            json::array({"0", "1", "0"}));
}

}  // namespace
}  // namespace zk::groth16
