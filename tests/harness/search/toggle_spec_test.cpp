// Tests of variant keys and of the factors between two variants.
#include "harness/search/toggle_spec.hpp"

#include <gtest/gtest.h>

namespace abtest::search {
namespace {

const std::vector<toggle_spec> toggles{
    {"B1", {"OFF", "ON"}, ""}, {"A1", {"0", "1", "2", "4"}, "4"}, {"A2", {"OFF", "ON"}, ""}};

TEST(toggle_spec, variant_keys_are_canonical) {
  EXPECT_EQ(variant_key(toggles, {}), "base");
  EXPECT_EQ(variant_key(toggles, {{"B1", "ON"}, {"A1", "4"}}), "A1=4+B1");
  EXPECT_EQ(variant_key(toggles, {{"B1", "OFF"}, {"A1", "0"}}), "base");
  EXPECT_THROW(variant_key(toggles, {{"Z9", "ON"}}), std::invalid_argument);
  EXPECT_THROW(variant_key(toggles, {{"A1", "3"}}), std::invalid_argument);
}

// Sorted by toggle id, not by the spelled term: "A1=4" sorts after "A10" as a string ('=' > '0'), yet
// A1 comes first in the key (design §5), and a culprit's toggles are spelled in the same order.
TEST(toggle_spec, keys_sort_by_id_not_by_the_spelled_term) {
  const std::vector<toggle_spec> ids{{"A10", {"OFF", "ON"}, ""}, {"A1", {"0", "1", "2", "4"}, "4"}};
  EXPECT_EQ(variant_key(ids, {{"A1", "4"}, {"A10", "ON"}}), "A1=4+A10");
  const std::vector<factor> f = differing_factors(ids, {}, {{"A1", "4"}, {"A10", "ON"}});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].name, "A1=4");
  EXPECT_EQ(f[1].name, "A10");
}

TEST(toggle_spec, factors_between_two_variants) {
  const levels from{{"A1", "1"}};
  const levels to{{"A1", "4"}, {"B1", "ON"}, {"A2", "OFF"}};
  const std::vector<factor> f = differing_factors(toggles, from, to);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].name, "A1=4");
  EXPECT_EQ(f[0].low, "1");
  EXPECT_EQ(f[1].name, "B1");
  EXPECT_TRUE(differing_factors(toggles, from, to, {"A1", "B1"}).empty());
  const levels mixed = apply(from, f, {0, 1});
  EXPECT_EQ(variant_key(toggles, mixed), "A1=1+B1");
}

}  // namespace
}  // namespace abtest::search
