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

// The estimated level and spread of a short reference inflate S; the calibrated h holds the chance
// that a clean series alarms on its latest night near its nominal 0.1% per side. h = 5 alone gave
// 1.2% (10 + 2 nights) and 11% (10 + 14) per side in the same simulation (cusum.hpp).
TEST(cusum, short_references_keep_the_false_alarm_rate) {
  for (const std::size_t nights : {12u, 24u}) {
    int alarms = 0;
    constexpr int series = 3000;
    for (std::uint64_t seed = 0; seed < series; ++seed) alarms += cusum_latest(testing::noise(nights, 0.02, 9100 + seed)).state != alarm::none;
    std::printf("[ measured ] %zu-night clean series: %d of %d alarmed (h %.2f)\n", nights, alarms, series,
                calibrated_h(10, nights - 10, 0.5, 0.001));
    // Two sides at 0.1% each: expect 6 of 3000; 3 SE above that is 19.
    EXPECT_LE(alarms, 19) << nights << " nights, seed base 9100";
  }
  EXPECT_GT(calibrated_h(10, 14, 0.5, 0.001), calibrated_h(50, 14, 0.5, 0.001)) << "a shorter reference needs a higher h";
}

TEST(cusum, too_few_points_or_no_spread_means_no_alarm) {
  EXPECT_EQ(cusum_latest(testing::noise(10, 0.02, 44)).state, alarm::none);
  EXPECT_EQ(cusum_latest(std::vector<double>(30, 1.0)).state, alarm::none);
  auto x = testing::noise(40, 0.02, 45);
  testing::add_step(x, 20, 0.2);
  EXPECT_EQ(cusum_latest(x, 20).state, alarm::none) << "started at the step: the new level is in control";
}

}  // namespace abtest::changepoint
