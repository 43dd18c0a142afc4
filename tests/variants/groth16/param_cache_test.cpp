// The parameter cache: round trip, reuse keyed by circuit digest and seed, damaged files regenerate.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "groth16/param_cache.hpp"
#include "groth16/setup.hpp"
#include "test_circuits.hpp"

namespace zk::groth16 {
namespace {

class param_cache_test : public ::testing::Test {
 protected:
  std::filesystem::path dir;
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("zk_param_cache_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
           std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::remove_all(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
};

void expect_same(const parameters& a, const parameters& b) {
  EXPECT_EQ(a.num_inputs, b.num_inputs);
  EXPECT_EQ(a.num_aux, b.num_aux);
  EXPECT_EQ(a.num_constraints, b.num_constraints);
  EXPECT_EQ(a.domain_size, b.domain_size);
  EXPECT_EQ(a.circuit_digest, b.circuit_digest);
  EXPECT_EQ(a.vk.alpha_g1, b.vk.alpha_g1);
  EXPECT_EQ(a.vk.delta_g2, b.vk.delta_g2);
  EXPECT_EQ(a.vk.ic, b.vk.ic);
  EXPECT_EQ(a.h, b.h);
  EXPECT_EQ(a.l, b.l);
  EXPECT_EQ(a.a, b.a);
  EXPECT_EQ(a.b_g1, b.b_g1);
  EXPECT_EQ(a.b_g2, b.b_g2);
}

TEST_F(param_cache_test, load_or_setup_stores_then_reuses) {
  const testing::chain_circuit c{fr::from_u64(7), 20, 1};
  bool cached = true;
  const parameters first = load_or_setup(c, 5, dir, 2, &cached);
  EXPECT_FALSE(cached);
  const auto file = cache_path(dir, first.circuit_digest, 5);
  EXPECT_TRUE(std::filesystem::exists(file));
  const parameters again = load_or_setup(c, 5, dir, 2, &cached);
  EXPECT_TRUE(cached);
  expect_same(first, again);
  load_or_setup(c, 6, dir, 2, &cached);  // another seed is another entry
  EXPECT_FALSE(cached);
}

TEST_F(param_cache_test, damaged_or_foreign_files_are_not_loaded) {
  const testing::cubic_circuit c{fr::from_u64(3)};
  const parameters p = setup(c, 1);
  const auto file = dir / "p.params";
  save_parameters(p, file);
  expect_same(*load_parameters(file), p);
  EXPECT_FALSE(load_parameters(dir / "absent.params"));
  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 1);
  EXPECT_FALSE(load_parameters(file));
  std::ofstream(file, std::ios::binary) << "not a parameter file";
  EXPECT_FALSE(load_parameters(file));
}

}  // namespace
}  // namespace zk::groth16
