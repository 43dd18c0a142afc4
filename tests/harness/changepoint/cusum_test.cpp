// CUSUM alarm for the latest night: fires on a sustained shift, not on noise or on one spike.
#include "harness/changepoint/cusum.hpp"

#include <gtest/gtest.h>

#include "synthetic.hpp"

namespace abtest::changepoint {

TEST(cusum, alarms_after_a_sustained_shift_in_either_direction) {
  auto up = testing::noise(40, 0.02, 41);
  testing::add_step(up, 34, 0.06);  // 3σ for the last six nights
  EXPECT_EQ(cusum_latest(up).state, alarm::slower) << "seed 41";
  auto down = testing::noise(40, 0.02, 41);
  testing::add_step(down, 34, -0.06);
  EXPECT_EQ(cusum_latest(down).state, alarm::faster) << "seed 41";
}

TEST(cusum, one_spike_does_not_alarm) {
  auto x = testing::noise(40, 0.02, 42);
  x.back() += 0.08;  // 4σ < h + k
  const auto r = cusum_latest(x);
  EXPECT_EQ(r.state, alarm::none) << "seed 42, S+ " << r.upper;
}

TEST(cusum, false_alarm_rate_on_clean_series_is_small) {
  int alarms = 0;
  for (std::uint64_t seed = 0; seed < 300; ++seed)
    alarms += cusum_latest(testing::noise(60, 0.02, 4300 + seed)).state != alarm::none;
  std::printf("[ measured ] CUSUM alarms on 300 clean 60-night series: %d\n", alarms);
  EXPECT_LE(alarms, 15) << "seed base 4300";
}

TEST(cusum, too_few_points_or_no_spread_means_no_alarm) {
  EXPECT_EQ(cusum_latest(testing::noise(10, 0.02, 44)).state, alarm::none);
  EXPECT_EQ(cusum_latest(std::vector<double>(30, 1.0)).state, alarm::none);
  auto x = testing::noise(40, 0.02, 45);
  testing::add_step(x, 20, 0.2);
  EXPECT_EQ(cusum_latest(x, 20).state, alarm::none) << "started at the step: the new level is in control";
}

}  // namespace abtest::changepoint
