// The noise floor per metric below `abtest noise-floor`: the reach of the A/A′ CI, the metrics asked
// for, rows without a CI left out, and with layouts the pooled layout sd of the two halves.
#include "harness/experiment/noise_floor.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace abtest {
namespace {

// A row of `metric` with a CI of ln ratios [low, high] (none when low > high).
verdict_row row(const std::string& metric, double low, double high) {
  verdict_row r;
  r.metric = metric;
  r.n = 10;
  r.primary.estimate = (low + high) / 2;
  r.primary.has_ci = low <= high;
  r.primary.ci_low = low;
  r.primary.ci_high = high;
  return r;
}

TEST(noise_floors, the_floor_is_the_far_end_of_the_ci_either_way) {
  analysis_result a;
  a.rows = {row("proof.total_s", -0.01, 0.03), row("proof.synth_s", -0.05, 0.02), row("proof.maxrss_mib", 1, 0)};
  const auto floors = noise_floors(a, {}, floor_source::rebuild);
  ASSERT_EQ(floors.size(), 2u) << "a row without a CI has no floor";
  EXPECT_EQ(floors[0].row, &a.rows[0]);
  EXPECT_DOUBLE_EQ(floors[0].floor, std::expm1(0.03));
  EXPECT_EQ(floors[1].row->metric, "proof.synth_s");
  EXPECT_DOUBLE_EQ(floors[1].floor, std::expm1(0.05));
  EXPECT_EQ(floors[1].layout_sd, 0);
}

TEST(noise_floors, only_the_metrics_asked_for) {
  analysis_result a;
  a.rows = {row("proof.total_s", -0.01, 0.03), row("proof.synth_s", -0.05, 0.02)};
  const auto floors = noise_floors(a, {"proof.synth_s", "proof.other_s"}, floor_source::rebuild);
  ASSERT_EQ(floors.size(), 1u);
  EXPECT_EQ(floors[0].row->metric, "proof.synth_s");
}

TEST(noise_floors, layouts_pool_the_layout_sd_of_the_two_halves_and_need_a_split) {
  analysis_result a;
  a.rows = {row("proof.total_s", -0.02, 0.02), row("proof.synth_s", -0.02, 0.02)};
  a.rows[0].layouts = layout_split{4, 4, 0.03, 0.04, 0.01, 0.8};
  const auto floors = noise_floors(a, {}, floor_source::layouts);
  ASSERT_EQ(floors.size(), 1u) << "a row without a layout split is not a layouts floor";
  EXPECT_EQ(floors[0].row, &a.rows[0]);
  EXPECT_DOUBLE_EQ(floors[0].floor, std::expm1(0.02));
  EXPECT_NEAR(floors[0].layout_sd, std::sqrt((0.03 * 0.03 + 0.04 * 0.04) / 2), 1e-15);
}

}  // namespace
}  // namespace abtest
