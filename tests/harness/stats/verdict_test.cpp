// Tests of the verdict rule and its spelling.
#include "harness/stats/verdict.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace abtest::stats {
namespace {

log_estimate ci(double low, double estimate, double high) {
  log_estimate e;
  e.n = 10;
  e.estimate = estimate;
  e.ci_low = low;
  e.ci_high = high;
  e.has_ci = true;
  return e;
}

TEST(verdict, the_rule_with_the_default_margin) {
  EXPECT_EQ(decide(ci(0.01, 0.03, 0.05)).value, verdict::slower);
  EXPECT_EQ(decide(ci(-0.05, -0.03, -0.01)).value, verdict::faster);
  EXPECT_EQ(decide(ci(-0.005, 0.0, 0.009)).value, verdict::same);
  EXPECT_EQ(decide(ci(-0.005, 0.005, 0.02)).value, verdict::inconclusive);
  EXPECT_FALSE(decide(ci(0.01, 0.03, 0.05)).immaterial);
}

TEST(verdict, margin_is_relative_and_read_in_log_space) {
  const double edge = std::log1p(0.01);
  EXPECT_EQ(decide(ci(-edge, 0.0, edge)).value, verdict::same);
  EXPECT_EQ(decide(ci(-edge, 0.0, edge * 1.001)).value, verdict::inconclusive);
  EXPECT_EQ(decide(ci(-0.04, 0.0, 0.04), 0.05).value, verdict::same);
}

TEST(verdict, a_tiny_significant_effect_is_immaterial) {
  const verdict_result r = decide(ci(0.001, 0.004, 0.007));
  EXPECT_EQ(r.value, verdict::slower);  // SLOWER is checked before SAME
  EXPECT_TRUE(r.immaterial);
  EXPECT_TRUE(decide(ci(-0.007, -0.004, -0.001)).immaterial);
  EXPECT_FALSE(decide(ci(-0.005, 0.0, 0.005)).immaterial);
}

TEST(verdict, a_rate_is_better_higher) {
  // constraints per second up by 2–5%: FASTER; down: SLOWER; SAME and INCONCLUSIVE do not change.
  EXPECT_EQ(decide(ci(0.02, 0.03, 0.05), default_margin, better::higher).value, verdict::faster);
  EXPECT_EQ(decide(ci(-0.05, -0.03, -0.02), default_margin, better::higher).value, verdict::slower);
  EXPECT_EQ(decide(ci(-0.005, 0.0, 0.009), default_margin, better::higher).value, verdict::same);
  EXPECT_EQ(decide(ci(-0.005, 0.005, 0.02), default_margin, better::higher).value, verdict::inconclusive);
  EXPECT_TRUE(decide(ci(0.001, 0.004, 0.007), default_margin, better::higher).immaterial);
}

TEST(verdict, no_ci_is_inconclusive) {
  log_estimate e;
  e.estimate = 0.5;
  EXPECT_EQ(decide(e).value, verdict::inconclusive);
}

// Times have a speed; sizes, counts and rates do not: they read HIGHER / LOWER and say which is better.
TEST(verdict, labels_speak_of_speed_only_for_times) {
  EXPECT_EQ(verdict_label("proof.total_s", verdict::slower), "SLOWER");
  EXPECT_EQ(verdict_label("synth.synthesis_constraints_per_s", verdict::faster), "HIGHER (better)");
  EXPECT_EQ(verdict_label("synth.synthesis_constraints_per_s", verdict::slower), "LOWER (worse)");
  EXPECT_EQ(verdict_label("proof.maxrss_mib", verdict::slower), "HIGHER (worse)");
  EXPECT_EQ(verdict_label("proof.maxrss_mib", verdict::faster), "LOWER (better)");
  EXPECT_EQ(verdict_label("proof.instructions", verdict::faster), "LOWER (better)");
  EXPECT_EQ(verdict_label("proof.maxrss_mib", verdict::same), "SAME");
  EXPECT_EQ(verdict_label("proof.maxrss_mib", verdict::inconclusive), "INCONCLUSIVE");
}

// A verdict's way on the log scale; without one (SAME, INCONCLUSIVE), the way of a regression.
TEST(verdict, log_direction_follows_the_verdict_else_points_at_a_regression) {
  EXPECT_EQ(better_for("proof.total_s"), better::lower);
  EXPECT_EQ(better_for("proof.maxrss_mib"), better::lower);
  EXPECT_EQ(better_for("synth.synthesis_constraints_per_s"), better::higher);
  EXPECT_EQ(log_direction(verdict::slower, better::lower), +1);
  EXPECT_EQ(log_direction(verdict::faster, better::lower), -1);
  EXPECT_EQ(log_direction(verdict::slower, better::higher), -1);
  EXPECT_EQ(log_direction(verdict::faster, better::higher), +1);
  EXPECT_EQ(log_direction(verdict::same, better::lower), +1);
  EXPECT_EQ(log_direction(verdict::inconclusive, better::higher), -1);
}

TEST(verdict, spelling_round_trips) {
  for (verdict v : {verdict::slower, verdict::faster, verdict::same, verdict::inconclusive, verdict::invalid}) {
    EXPECT_EQ(parse_verdict(to_string(v)), v);
  }
  EXPECT_EQ(to_string(verdict::slower), "slower");
  EXPECT_FALSE(parse_verdict("SLOWER").has_value());
}

}  // namespace
}  // namespace abtest::stats
