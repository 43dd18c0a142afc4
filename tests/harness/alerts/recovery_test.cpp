// Tests of the rule that closes an alert as fixed: nearer the old level than the new, two nights in a row.
#include "harness/alerts/recovery.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace abtest::alerts {
namespace {

TEST(recovery, a_level_past_the_midpoint_is_back) {
  // 10 → 12: the log midpoint is sqrt(120) ≈ 10.954.
  EXPECT_TRUE(at_old_level(10, 12, 10.0));
  EXPECT_TRUE(at_old_level(10, 12, 10.9));
  EXPECT_FALSE(at_old_level(10, 12, 11.0)) << "past the log midpoint 10.954 towards the new level";
  EXPECT_FALSE(at_old_level(10, 12, 12.5));
  EXPECT_TRUE(at_old_level(10, 12, 9.0)) << "better than before is back too";
  // A rate falling (a regression of a _per_s metric) and coming back.
  EXPECT_TRUE(at_old_level(100, 80, 97));
  EXPECT_FALSE(at_old_level(100, 80, 85));
}

TEST(recovery, degenerate_levels_never_recover) {
  EXPECT_FALSE(at_old_level(10, 10, 10)) << "no change to undo";
  EXPECT_FALSE(at_old_level(0, 12, 10));
  EXPECT_FALSE(at_old_level(10, 12, 0));
  EXPECT_FALSE(at_old_level(10, -1, 10));
}

TEST(recovery, it_takes_the_last_two_nights) {
  EXPECT_FALSE(recovered(10, 12, std::vector<double>{12, 10.1})) << "one night can be noise";
  EXPECT_TRUE(recovered(10, 12, std::vector<double>{12, 12.1, 10.1, 9.9}));
  EXPECT_FALSE(recovered(10, 12, std::vector<double>{12, 10.1, 12.0})) << "came back, then left again";
  EXPECT_FALSE(recovered(10, 12, std::vector<double>{}));
}

}  // namespace
}  // namespace abtest::alerts
