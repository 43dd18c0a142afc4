// Canary normalisation pairs nights by id and works on the log scale.
#include "harness/changepoint/canary.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace abtest::changepoint {

TEST(canary, divides_by_the_same_nights_canary_and_skips_unpaired_nights) {
  const std::vector<night_value> series{{"n1", 10.0}, {"n2", 11.0}, {"n3", 12.0}, {"n4", 0.0}};
  const std::vector<night_value> canary{{"n3", 6.0}, {"n1", 5.0}, {"n4", 5.0}};
  const auto r = normalize_by_canary(series, canary);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].night, "n1");
  EXPECT_DOUBLE_EQ(r[0].value, std::log(2.0));
  EXPECT_EQ(r[1].night, "n3");
  EXPECT_DOUBLE_EQ(r[1].value, std::log(2.0));
}

}  // namespace abtest::changepoint
