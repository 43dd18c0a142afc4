// A metric's direction and margin (design §4): inference from name and unit, the manifest's
// rules by specificity, and the verdicts and labels they give.
#include "harness/stats/metric_policy.hpp"

#include <gtest/gtest.h>

#include "harness/stats/verdict.hpp"

namespace abtest::stats {
namespace {

TEST(metric_policy, rates_read_higher_is_better_from_their_names) {
  // Google Benchmark's own rate counters, as parse_gbench names them.
  EXPECT_EQ(infer_better("gb.BM_copy_64_items_per_second"), better::higher);
  EXPECT_EQ(infer_better("gb.BM_copy_64_bytes_per_second"), better::higher);
  EXPECT_EQ(infer_better("synth.synthesis_constraints_per_s"), better::higher);
  EXPECT_EQ(infer_better("zstd.ratio_mb_per_s"), better::higher);  // a `lines` rate (the fmt stream's naming)
  EXPECT_EQ(infer_better("io.read_per_sec"), better::higher);
  EXPECT_EQ(infer_better("kv.ops"), better::higher);
  EXPECT_EQ(infer_better("kv.get_ops_s"), better::higher);
  EXPECT_EQ(infer_better("net.throughput_mb"), better::higher);
  EXPECT_EQ(infer_better("db.QPS"), better::higher);
  EXPECT_EQ(infer_better("cpu.clock_hz"), better::higher);
}

TEST(metric_policy, times_sizes_and_counts_say_nothing) {
  for (const char* m : {"proof.total_s", "proof.maxrss_mib", "proof.instructions", "gb.BM_copy_64_s", "synth.counts.Ir",
                        "loop.loops_s",        // `ops` is a word: loops is not ops
                        "p.stops",             // nor is stops
                        "p.per_second_thing",  // `per_second` must end the name
                        "p.throughputs", ""})
    EXPECT_EQ(infer_better(m), std::nullopt) << m;
  EXPECT_EQ(better_for("proof.total_s"), better::lower);
}

TEST(metric_policy, a_rate_unit_says_higher_whatever_the_name) {
  EXPECT_EQ(infer_better("zstd.level3", "MB/s"), better::higher);
  EXPECT_EQ(infer_better("zstd.level3", "GiB/s"), better::higher);
  EXPECT_EQ(infer_better("kv.get", "ops/s"), better::higher);
  EXPECT_EQ(infer_better("kv.get", "ops"), better::higher);
  EXPECT_EQ(infer_better("kv.get", "ms"), std::nullopt);
  EXPECT_EQ(infer_better("kv.get", "MiB"), std::nullopt);
}

TEST(metric_policy, globs_match_the_whole_name) {
  EXPECT_TRUE(glob_match("*_items_per_second", "gb.BM_x_items_per_second"));
  EXPECT_TRUE(glob_match("gb.*", "gb.BM_x_s"));
  EXPECT_TRUE(glob_match("gb.BM_?_s", "gb.BM_x_s"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("a*b*c", "axxbyyc"));
  EXPECT_FALSE(glob_match("gb.*", "gbx.BM_x_s"));
  EXPECT_FALSE(glob_match("*_items_per_second", "gb.BM_x_items_per_second_x"));
  EXPECT_FALSE(glob_match("gb.BM_?_s", "gb.BM_xy_s"));
  EXPECT_FALSE(glob_match("proof.total_s", "proof.total_s2"));
}

TEST(metric_policy, without_rules_the_name_or_the_default_decides) {
  const auto time = resolve_policy({}, "proof.total_s", 0.01);
  EXPECT_EQ(time.direction, better::lower);
  EXPECT_EQ(time.direction_from, policy_source::fallback);
  EXPECT_EQ(time.margin, 0.01);
  EXPECT_EQ(time.margin_from, policy_source::fallback);
  const auto rate = resolve_policy({}, "gb.BM_x_items_per_second", 0.02);
  EXPECT_EQ(rate.direction, better::higher);
  EXPECT_EQ(rate.direction_from, policy_source::inferred);
  EXPECT_EQ(rate.margin, 0.02);
}

// Each field from the most specific rule that sets it: exact name, then the longest glob, then the
// benchmark's own; a rule that sets only a margin leaves the direction to the next.
TEST(metric_policy, the_most_specific_rule_wins_field_by_field) {
  const std::vector<metric_rule> rules{
      {"gb.*", better::lower, 0.05, true},                          // the benchmark's own
      {"*_items_per_second", better::higher, std::nullopt, false},  // a glob
      {"gb.BM_x_*", std::nullopt, 0.03, false},                     // a longer glob, margin only
      {"gb.BM_x_items_per_second", std::nullopt, 0.10, false},      // exact
  };
  const auto exact = resolve_policy(rules, "gb.BM_x_items_per_second", 0.01);
  EXPECT_EQ(exact.direction, better::higher);  // the glob's, over the benchmark's lower
  EXPECT_EQ(exact.direction_from, policy_source::manifest);
  EXPECT_DOUBLE_EQ(exact.margin, 0.10);
  const auto other = resolve_policy(rules, "gb.BM_y_items_per_second", 0.01);
  EXPECT_EQ(other.direction, better::higher);
  EXPECT_DOUBLE_EQ(other.margin, 0.05);  // the benchmark's: no glob with a margin matches
  const auto time = resolve_policy(rules, "gb.BM_x_s", 0.01);
  EXPECT_EQ(time.direction, better::lower);
  EXPECT_DOUBLE_EQ(time.margin, 0.03);
  const auto elsewhere = resolve_policy(rules, "proof.total_s", 0.01);
  EXPECT_EQ(elsewhere.direction_from, policy_source::fallback);
  EXPECT_EQ(elsewhere.margin_from, policy_source::fallback);
  // A declaration overrides the inference, both ways.
  const auto declared = resolve_policy({{"gb.BM_x_items_per_second", better::lower, std::nullopt, false}},
                                       "gb.BM_x_items_per_second", 0.01);
  EXPECT_EQ(declared.direction, better::lower);
  EXPECT_EQ(declared.direction_from, policy_source::manifest);
}

// A benchmark declared `better: higher` (a throughput tool) still has a wall time and a peak
// memory that are better lower; its margin reaches them, and an explicit entry still wins.
TEST(metric_policy, a_benchmarks_direction_leaves_the_harness_metrics_alone) {
  const std::vector<metric_rule> rules{{"zstd.*", better::higher, 0.03, true}};
  EXPECT_EQ(resolve_policy(rules, "zstd.level3_mb", 0.01).direction, better::higher);
  for (const char* m : {"zstd.wall_s", "zstd.maxrss_mib", "zstd.user_s", "zstd.counts.Ir", "zstd.instructions"}) {
    const auto p = resolve_policy(rules, m, 0.01);
    EXPECT_EQ(p.direction, better::lower) << m;
    EXPECT_EQ(p.direction_from, policy_source::fallback) << m;
    EXPECT_DOUBLE_EQ(p.margin, 0.03) << m;
  }
  EXPECT_TRUE(is_harness_metric("zstd.wall_s"));
  EXPECT_FALSE(is_harness_metric("zstd.level3_mb"));
  EXPECT_FALSE(is_harness_metric("zstd.total_s"));
  const std::vector<metric_rule> odd{{"zstd.*", better::higher, std::nullopt, true}, {"zstd.wall_s", better::higher, std::nullopt, false}};
  EXPECT_EQ(resolve_policy(odd, "zstd.wall_s", 0.01).direction, better::higher);
}

// A rate twice as high: FASTER (better) by the rule, and it reads HIGHER (better); half as high is a
// regression. The same CI on a time is SLOWER.
TEST(metric_policy, a_rising_rate_is_better_and_reads_so) {
  log_estimate up;
  up.has_ci = true;
  up.estimate = 0.69;
  up.ci_low = 0.6;
  up.ci_high = 0.8;
  EXPECT_EQ(decide(up, 0.01, better::higher).value, verdict::faster);
  EXPECT_EQ(decide(up, 0.01, better::lower).value, verdict::slower);
  EXPECT_EQ(verdict_label("gb.BM_x_items_per_second", verdict::faster, better::higher), "HIGHER (better)");
  EXPECT_EQ(verdict_label("gb.BM_x_items_per_second", verdict::slower, better::higher), "LOWER (worse)");
  EXPECT_EQ(verdict_label("gb.BM_x_items_per_second", verdict::faster), "HIGHER (better)");  // inferred
  EXPECT_EQ(verdict_label("zstd.compress_mb", verdict::faster, better::higher), "HIGHER (better)");
  EXPECT_EQ(verdict_label("gb.BM_x_s", verdict::faster, better::lower), "FASTER");
}

// The margin decides what is material: a 2% move is a regression at the default 1%, immaterial
// inside a declared 3%.
TEST(metric_policy, a_declared_margin_makes_a_small_move_immaterial) {
  log_estimate e;
  e.has_ci = true;
  e.estimate = 0.02;
  e.ci_low = 0.015;
  e.ci_high = 0.025;
  EXPECT_EQ(decide(e, 0.01, better::lower).value, verdict::slower);
  EXPECT_FALSE(decide(e, 0.01, better::lower).immaterial);
  EXPECT_TRUE(decide(e, 0.03, better::lower).immaterial);
}

TEST(metric_policy, spellings_round_trip) {
  for (const auto b : {better::lower, better::higher}) EXPECT_EQ(parse_better(to_string(b)), b);
  for (const auto s : {policy_source::manifest, policy_source::inferred, policy_source::fallback})
    EXPECT_EQ(parse_policy_source(to_string(s)), s);
  EXPECT_EQ(to_string(policy_source::fallback), "default");
  EXPECT_FALSE(parse_better("Higher").has_value());
}

}  // namespace
}  // namespace abtest::stats
