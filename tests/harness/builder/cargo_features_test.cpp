// cargo_features: the package's [features] from real `cargo metadata` output
// (tests/fixtures/cargo-metadata, generate.sh beside it), their closure, and the flags that keep
// the crate's `default` list in force but for what a handed toggle level turns off (design §5).
#include "harness/builder/cargo_features.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace abtest {
namespace {

std::string fixture() {
  std::ifstream in(std::string(ABTEST_SOURCE_DIR) + "/tests/fixtures/cargo-metadata/cargo-indexer-default.json");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(cargo_features, the_packages_table_is_read_from_cargo_metadata) {
  const auto table = parse_cargo_features(fixture(), "/crate/Cargo.toml");
  ASSERT_TRUE(table);
  EXPECT_EQ(table->at("default"), std::vector<std::string>{"planted_slow"});
  EXPECT_EQ(table->at("smallvec4"), std::vector<std::string>{"dep:smallvec"});
  EXPECT_EQ(parse_cargo_features(fixture(), "/elsewhere/Cargo.toml"), std::nullopt) << "another package";
  EXPECT_EQ(parse_cargo_features("not json", "/crate/Cargo.toml"), std::nullopt);
  EXPECT_EQ(parse_cargo_features(R"({"packages": 3})", "/crate/Cargo.toml"), std::nullopt);
}

TEST(cargo_features, the_closure_follows_features_not_dependencies) {
  const cargo_feature_table t = {{"default", {"fast"}}, {"fast", {"simd", "dep:smallvec", "serde/std"}}, {"simd", {}}};
  EXPECT_EQ(feature_closure(t, {"default"}), (std::set<std::string>{"default", "fast", "simd"}));
  EXPECT_EQ(feature_closure(t, {}), std::set<std::string>{});
}

TEST(cargo_features, the_default_list_stays_in_force) {
  const auto table = *parse_cargo_features(fixture(), "/crate/Cargo.toml");
  const auto f = feature_flags(table, {"planted_null"}, {});
  EXPECT_FALSE(f.no_default_features);
  EXPECT_EQ(f.features, std::set<std::string>{"planted_null"});
  EXPECT_EQ(f.enabled, (std::set<std::string>{"default", "planted_null", "planted_slow"}));
}

TEST(cargo_features, a_handed_off_level_takes_its_feature_out_of_the_default) {
  const auto table = *parse_cargo_features(fixture(), "/crate/Cargo.toml");
  const auto f = feature_flags(table, {}, {"planted_slow"});
  EXPECT_TRUE(f.no_default_features);
  EXPECT_TRUE(f.features.empty());
  EXPECT_EQ(f.enabled.count("planted_slow"), 0u);
  // Through a feature that enables it: that one goes too, its other members stay.
  const cargo_feature_table t = {{"default", {"fast", "log"}}, {"fast", {"simd", "slow"}}, {"simd", {}}, {"slow", {}}, {"log", {}}};
  const auto g = feature_flags(t, {}, {"slow"});
  EXPECT_TRUE(g.no_default_features);
  EXPECT_EQ(g.features, (std::set<std::string>{"log", "simd"}));
  EXPECT_EQ(g.enabled, (std::set<std::string>{"log", "simd"}));
}

}  // namespace
}  // namespace abtest
