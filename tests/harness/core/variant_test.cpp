// Variant keys are canonical (design §5) and specs/flags are validated against the manifest.
#include "harness/core/variant.hpp"

#include <gtest/gtest.h>

#include "harness/core/errors.hpp"

namespace abtest {
namespace {

manifest sample_manifest() {
  return parse_manifest(R"({"project": "p", "build": {"targets": ["b"]},
    "toggles": [{"id": "B1", "option": "O_B1"}, {"id": "A1", "option": "O_A1", "levels": ["0","1","2","4"], "on": "4"},
                {"id": "A2", "option": "O_A2"}],
    "benchmarks": [{"name": "x", "format": "json", "command": ["{bin}/b"]}]})",
                        "/p/abtest.json");
}

TEST(variant, keys_are_sorted_by_id_and_spell_levels_only_for_multi_level_toggles) {
  const auto m = sample_manifest();
  EXPECT_EQ(variant_from_flags({"B1", "A1"}, m).key(m), "A1=4+B1");
  EXPECT_EQ(variant_from_flags({"A1=2"}, m).key(m), "A1=2");
  EXPECT_EQ(variant_from_flags({"A1=0"}, m).key(m), "base");  // the off level is no change
  EXPECT_EQ(parse_variant_spec("base", m).key(m), "base");
  EXPECT_EQ(parse_variant_spec("all", m).key(m), "A1=4+A2+B1");
  EXPECT_EQ(parse_variant_spec("B1+A1=1", m).key(m), "A1=1+B1");
  EXPECT_EQ(parse_variant_spec("A1=4+B1", m).folder_name(m), "A1-4+B1");
}

// One key function: the key a variant is built and stored under is the key the search reports
// (bisect's from/to, its steps), also where sorting the spelled terms would differ (A1=4 vs A10).
TEST(variant, the_harness_and_the_search_spell_the_same_key) {
  const auto m = parse_manifest(R"({"project": "p", "build": {"targets": ["b"]},
    "toggles": [{"id": "A10", "option": "O_A10"}, {"id": "A1", "option": "O_A1", "levels": ["0","1","2","4"], "on": "4"}],
    "benchmarks": [{"name": "x", "format": "json", "command": ["{bin}/b"]}]})",
                                "/p/abtest.json");
  const variant all = parse_variant_spec("all", m);
  EXPECT_EQ(all.key(m), "A1=4+A10");
  EXPECT_EQ(search::variant_key(search_toggles(m), all.levels), all.key(m));
  EXPECT_EQ(variant_key({{"A1", "0"}, {"A10", "ON"}}, m), "A10");
  EXPECT_EQ(parse_variant_spec(all.key(m), m), all);
}

TEST(variant, round_trip_through_the_key) {
  const auto m = sample_manifest();
  for (const std::string spec : {"A1=1", "A1=2+A2", "A1=4+A2+B1", "A2+B1"})
    EXPECT_EQ(parse_variant_spec(parse_variant_spec(spec, m).key(m), m), parse_variant_spec(spec, m)) << spec;
}

TEST(variant, all_levels_lists_off_levels_too) {
  const auto m = sample_manifest();
  const auto levels = variant_from_flags({"A2"}, m).all_levels(m);
  EXPECT_EQ(levels.at("A1"), "0");
  EXPECT_EQ(levels.at("A2"), "ON");
  EXPECT_EQ(levels.at("B1"), "OFF");
}

TEST(variant, bad_specs_are_usage_errors) {
  const auto m = sample_manifest();
  auto code_of = [&](auto f) {
    try {
      f();
    } catch (const user_error& e) {
      return e.code();
    }
    return exit_code::ok;
  };
  EXPECT_EQ(code_of([&] { variant_from_flags({"C9"}, m); }), exit_code::usage);
  EXPECT_EQ(code_of([&] { variant_from_flags({"A1=3"}, m); }), exit_code::usage);
  EXPECT_EQ(code_of([&] { variant_from_flags({"A1", "A1=2"}, m); }), exit_code::usage);
  EXPECT_EQ(code_of([&] { parse_variant_spec("A1++B1", m); }), exit_code::usage);
  EXPECT_EQ(code_of([&] { parse_variant_spec("", m); }), exit_code::usage);
  EXPECT_EQ(code_of([&] { parse_variant_spec("A1;ls", m); }), exit_code::usage);
}

}  // namespace
}  // namespace abtest
