// resolved_toggles: CMake truth, a cache value's level, a Cargo feature set's level, the flips
// between two builds and their words (design §5).
#include "harness/builder/resolved_toggles.hpp"
#include "harness/core/toggles/toggle_kind.hpp"

#include <gtest/gtest.h>

namespace abtest {
namespace {

toggle_spec option_toggle(std::vector<std::string> levels = {"OFF", "ON"}) {
  toggle_spec t;
  t.id = "FX_X2";
  t.option = "FX_X2";
  t.levels = std::move(levels);
  t.on = t.levels.back();
  return t;
}

TEST(resolved_toggles, cmake_truth_follows_the_if_command) {
  for (const char* t : {"ON", "on", "Yes", "TRUE", "y", "1", "2", "0.5"}) EXPECT_EQ(cmake_truth(t), true) << t;
  for (const char* f : {"OFF", "no", "False", "N", "IGNORE", "0", "", "FOO-NOTFOUND", "NOTFOUND"}) EXPECT_EQ(cmake_truth(f), false) << f;
  EXPECT_EQ(cmake_truth("fast"), std::nullopt);
}

TEST(resolved_toggles, a_cache_value_is_the_level_of_the_same_text_else_the_same_truth) {
  const toggle_spec t = option_toggle();
  EXPECT_EQ(level_of_value(t, "ON"), "ON");
  EXPECT_EQ(level_of_value(t, "1"), "ON") << "option(X \"\" 1) stores 1";
  EXPECT_EQ(level_of_value(t, "off"), "OFF");
  EXPECT_EQ(level_of_value(t, "fast"), std::nullopt);
  toggle_spec size = option_toggle({"1", "2", "4"});
  EXPECT_EQ(level_of_value(size, "2"), "2");
  EXPECT_EQ(level_of_value(size, "3"), std::nullopt) << "2 and 4 are both true: the truth cannot choose";
  toggle_spec valued = option_toggle({"O2", "O3"});
  valued.values = {{"O3", "-O3 -march=native"}};
  EXPECT_EQ(level_of_value(valued, "-O3 -march=native"), "O3");
}

TEST(resolved_toggles, the_level_of_features_is_the_last_whose_features_are_all_enabled) {
  toggle_spec a1;
  a1.id = "A1";
  a1.kind = find_toggle_kind("feature");
  a1.levels = {"0", "1", "2", "4"};
  a1.features = {{"1", {"smallvec1"}}, {"2", {"smallvec2"}}, {"4", {"smallvec4"}}};
  EXPECT_EQ(level_of_features(a1, {}), "0");
  EXPECT_EQ(level_of_features(a1, {"smallvec2", "planted_slow"}), "2");
  EXPECT_EQ(level_of_features(a1, {"smallvec1", "smallvec4"}), "4");
}

TEST(resolved_toggles, a_flip_is_a_default_that_resolved_differently) {
  const resolved_toggles base = {{"FX_X2", {"OFF", "OFF", false}}, {"SIZE", {"1", "1", false}}, {"CRASH", {"ON", "ON", true}},
                                 {"GONE", {"ON", "ON", false}}, {"MAKEVAR", {std::nullopt, std::nullopt, false}}};
  const resolved_toggles head = {{"FX_X2", {"ON", "ON", false}}, {"SIZE", {"1", "1", false}}, {"CRASH", {"ON", "ON", true}},
                                 {"MAKEVAR", {std::nullopt, std::nullopt, false}}, {"NEW", {"ON", "ON", false}}};
  const auto flips = default_flips(base, head);
  ASSERT_EQ(flips.size(), 1u);
  EXPECT_EQ(to_text(flips[0]), "FX_X2: OFF → ON");
  EXPECT_EQ(flips[0].from_level, "OFF");
  // A value no level matches is named as the value; a toggle the project does not define, unset.
  const auto odd = default_flips({{"FX_X2", {"fast", std::nullopt, false}}}, {{"FX_X2", {std::nullopt, std::nullopt, false}}});
  ASSERT_EQ(odd.size(), 1u);
  EXPECT_EQ(to_text(odd[0]), "FX_X2: \"fast\" → unset");
  EXPECT_EQ(odd[0].from_level, std::nullopt);
  EXPECT_TRUE(default_flips(base, base).empty());
}

TEST(resolved_toggles, the_build_rows_json_reads_back) {
  const resolved_toggles r = {{"FX_X2", {"1", "ON", false}}, {"CRASH", {"ON", "ON", true}}, {"MAKEVAR", {}}};
  const auto j = to_json(r);
  EXPECT_EQ(j["FX_X2"]["set_by"], "project");
  EXPECT_EQ(j["CRASH"]["set_by"], "abtest");
  EXPECT_TRUE(j["MAKEVAR"]["value"].is_null());
  const auto back = resolved_from_json(j);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back.at("FX_X2").value, "1");
  EXPECT_EQ(back.at("FX_X2").level, "ON");
  EXPECT_FALSE(back.at("FX_X2").handed);
  EXPECT_TRUE(back.at("CRASH").handed);
  EXPECT_EQ(to_text(back.at("FX_X2")), "ON");
  EXPECT_EQ(to_text(back.at("MAKEVAR")), "unset");
  EXPECT_EQ(to_text(resolved_toggle{"fast", std::nullopt, false}), "\"fast\"");
  EXPECT_TRUE(resolved_from_json(nlohmann::json::array()).empty());
}

}  // namespace
}  // namespace abtest
