// The circuit inputs: deterministic in (preset, seed), consistent natively, JSON round trip.
#include "circuits/porep_vanilla.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "circuits/poseidon_native.hpp"

namespace zk::circuits {
namespace {

TEST(porep_vanilla, generation_is_deterministic_and_seed_dependent) {
  const porep_preset& p = find_porep_preset("tiny");
  const porep_vanilla a = generate_porep_vanilla(p, 1), b = generate_porep_vanilla(p, 1);
  const porep_vanilla c = generate_porep_vanilla(p, 2);
  ASSERT_EQ(a.partitions.size(), p.partitions);
  EXPECT_EQ(a.partitions[0].comm_r, b.partitions[0].comm_r);
  EXPECT_NE(a.partitions[0].comm_r, c.partitions[0].comm_r);
  EXPECT_NE(a.partitions[0].comm_r, a.partitions[1].comm_r);
}

TEST(porep_vanilla, paths_lead_to_the_roots) {
  const porep_preset& p = find_porep_preset("small");
  const porep_vanilla v = generate_porep_vanilla(p, 9);
  for (const auto& w : v.partitions) {
    EXPECT_EQ(poseidon_hash(std::array<fr, 2>{w.comm_c, w.comm_r_last}), w.comm_r);
    for (const auto& c : w.challenges) {
      fr cur = c.data_leaf;
      uint64_t idx = c.node.index;
      for (const fr& sib : c.data_path) {
        cur = idx & 1 ? sha256_node(sib, cur) : sha256_node(cur, sib);
        idx >>= 1;
      }
      EXPECT_EQ(cur, w.comm_d);
      ASSERT_EQ(c.parents.size(), p.parents);
      ASSERT_EQ(c.node.labels.size(), p.layers);
      ASSERT_EQ(c.node.path.size(), p.oct_depth);
      ASSERT_EQ(c.node.path[0].size(), 7u);
    }
  }
}

TEST(porep_vanilla, json_round_trip_and_errors) {
  const porep_vanilla v = generate_porep_vanilla(find_porep_preset("tiny"), 5);
  const auto file = std::filesystem::temp_directory_path() / ("porep_vanilla_test_" + std::to_string(::getpid()) + ".json");
  save_porep_vanilla(v, file);
  const porep_vanilla back = load_porep_vanilla(file);
  std::filesystem::remove(file);
  EXPECT_EQ(back.preset, "tiny");
  EXPECT_EQ(back.seed, 5u);
  ASSERT_EQ(back.partitions.size(), v.partitions.size());
  EXPECT_EQ(back.partitions[1].comm_r, v.partitions[1].comm_r);
  EXPECT_EQ(back.partitions[1].challenges[0].parents[0].path, v.partitions[1].challenges[0].parents[0].path);
  EXPECT_THROW(load_porep_vanilla(file), std::runtime_error);
  EXPECT_THROW(find_porep_preset("huge"), std::invalid_argument);
}

}  // namespace
}  // namespace zk::circuits
