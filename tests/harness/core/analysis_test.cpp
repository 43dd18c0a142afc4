// Analysis: paired rounds, dropped failures, INVALID on failed checks or digest changes, Holm,
// and the reference comparison's comparability rule.
#include "harness/core/analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace abtest {
namespace {

run_plan two_arms() {
  run_plan p;
  p.arms = {{"base", {}, "baseline", "", "", std::nullopt, {}, {}},
            {"SLOW", {{"SLOW", "ON"}}, "candidate", "", "", std::nullopt, {}, {}}};
  p.benchmarks = {"b"};
  p.seed = 1;
  return p;
}

sample row(int arm, int round, double time, double work, std::string digest = "d") {
  sample s;
  s.arm = arm;
  s.benchmark = "b";
  s.round = round;
  s.metrics = {{"b.total_s", time}, {"b.work_count", work}};
  s.checks = {{"verified", "true"}, {"digest", digest}};
  return s;
}

const verdict_row& find(const analysis_result& a, const std::string& metric) {
  for (const auto& r : a.rows)
    if (r.metric == metric) return r;
  throw std::runtime_error("no row " + metric);
}

std::vector<sample> planted(double ratio, int rounds, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, 0.02);
  std::vector<sample> s;
  for (int r = 1; r <= rounds; ++r) {
    s.push_back(row(0, r, std::exp(noise(rng)), 1000));
    s.push_back(row(1, r, ratio * std::exp(noise(rng)), 1000 * ratio));
  }
  return s;
}

TEST(analysis, planted_slowdown_is_slower_and_exact_on_the_deterministic_metric) {
  const auto a = analyze(two_arms(), planted(1.3, 10, 3));
  const auto& work = find(a, "b.work_count");
  EXPECT_EQ(work.verdict, stats::verdict::slower);
  EXPECT_NEAR(work.primary.ratio(), 1.3, 1e-12);
  EXPECT_DOUBLE_EQ(work.baseline_median, 1000);
  EXPECT_DOUBLE_EQ(work.candidate_median, 1300);
  const auto& time = find(a, "b.total_s");
  EXPECT_EQ(time.verdict, stats::verdict::slower);
  EXPECT_NEAR(time.primary.ratio(), 1.3, 0.05);
  EXPECT_LT(time.primary.ratio_low(), time.primary.ratio());
  EXPECT_GT(time.primary.ratio_high(), time.primary.ratio());
  EXPECT_TRUE(a.any_slower());
  EXPECT_FALSE(a.any_invalid());
}

// synth-bench reports constraints per second beside the time: when the time drops, the rate rises,
// and both are the same improvement. (An abtest run once called a 1.36× rate SLOWER.)
TEST(analysis, a_rate_that_rises_is_faster_and_its_fall_is_slower) {
  for (const double ratio : {0.75, 1.3}) {
    auto samples = planted(ratio, 10, 5);
    for (auto& s : samples) s.metrics["b.rows_per_s"] = 1.0 / s.metrics.at("b.total_s");
    const auto a = analyze(two_arms(), samples);
    const auto& time = find(a, "b.total_s");
    const auto& rate = find(a, "b.rows_per_s");
    const auto expected_rate = ratio < 1 ? stats::verdict::faster : stats::verdict::slower;
    EXPECT_EQ(time.verdict, expected_rate) << ratio;
    EXPECT_EQ(rate.verdict, expected_rate) << ratio;
    EXPECT_NEAR(rate.primary.ratio(), 1.0 / time.primary.ratio(), 1e-9);
    EXPECT_EQ(a.any_slower(), ratio > 1) << ratio;
  }
}

// A rate the name does not give away (a `lines` metric in MB/s, `b.level3_mb`) is judged as the
// plan's rules declare it (design §4): better higher, and with its own margin; each row says so.
TEST(analysis, a_declared_direction_and_margin_judge_the_metric) {
  for (const double ratio : {0.75, 1.3}) {
    auto samples = planted(ratio, 10, 5);
    for (auto& s : samples) s.metrics["b.level3_mb"] = 100.0 / s.metrics.at("b.total_s");
    auto plan = two_arms();
    const auto undeclared = analyze(plan, samples);
    EXPECT_EQ(find(undeclared, "b.level3_mb").verdict, ratio < 1 ? stats::verdict::slower : stats::verdict::faster) << ratio;
    EXPECT_EQ(find(undeclared, "b.level3_mb").policy.direction_from, stats::policy_source::fallback);
    plan.metric_rules = {{"b.level3_mb", stats::better::higher, 0.5, false}};
    const auto a = analyze(plan, samples);
    const auto& rate = find(a, "b.level3_mb");
    EXPECT_EQ(rate.verdict, ratio < 1 ? stats::verdict::faster : stats::verdict::slower) << ratio;
    EXPECT_EQ(rate.policy.direction, stats::better::higher);
    EXPECT_EQ(rate.policy.direction_from, stats::policy_source::manifest);
    EXPECT_DOUBLE_EQ(rate.policy.margin, 0.5);
    EXPECT_TRUE(rate.immaterial) << "a 25-30% move inside a declared 50% margin";
    EXPECT_EQ(find(a, "b.total_s").policy.margin, plan.margin);
  }
}

TEST(analysis, no_effect_is_same_not_slower) {
  const auto a = analyze(two_arms(), planted(1.0, 30, 4));
  EXPECT_EQ(find(a, "b.work_count").verdict, stats::verdict::same);
  EXPECT_NE(find(a, "b.total_s").verdict, stats::verdict::slower);
  EXPECT_FALSE(a.any_slower());
}

TEST(analysis, failed_invocation_drops_its_round) {
  auto s = planted(1.3, 10, 5);
  s[5].status = sample_status::crashed;  // round 3 of the candidate
  s[5].error = "signal 11";
  const auto a = analyze(two_arms(), s);
  EXPECT_EQ(find(a, "b.work_count").n, 9);
  EXPECT_EQ(a.arms[1].failed, 1);
  EXPECT_NE(a.arms[1].first_error.find("crashed"), std::string::npos);
  EXPECT_TRUE(a.any_failed());
}

TEST(analysis, warmups_are_recorded_but_not_analysed) {
  auto s = planted(1.3, 6, 6);
  auto w = row(1, 1, 100.0, 1);  // an absurd warm-up must not move anything
  w.warmup = true;
  s.push_back(w);
  EXPECT_EQ(find(analyze(two_arms(), s), "b.work_count").n, 6);
  EXPECT_NEAR(find(analyze(two_arms(), s), "b.work_count").primary.ratio(), 1.3, 1e-12);
}

TEST(analysis, failed_check_or_changed_digest_is_invalid) {
  auto s = planted(0.5, 10, 7);  // much faster — but wrong
  s[3].checks["verified"] = "false";
  auto a = analyze(two_arms(), s);
  EXPECT_TRUE(a.any_invalid());
  for (const auto& r : a.rows) EXPECT_EQ(r.verdict, stats::verdict::invalid) << r.metric;

  s = planted(1.0, 10, 8);
  for (auto& x : s)
    if (x.arm == 1) x.checks["digest"] = "other";
  a = analyze(two_arms(), s);
  EXPECT_NE(a.arms[1].invalid_reason.find("differs from the baseline"), std::string::npos);
  EXPECT_EQ(find(a, "b.total_s").verdict, stats::verdict::invalid);
}

TEST(analysis, holm_adjusts_across_every_row) {
  const auto a = analyze(two_arms(), planted(1.02, 12, 9));
  for (const auto& r : a.rows) EXPECT_GE(r.p_adjusted, r.primary.p_value);
}

TEST(analysis, too_few_rounds_is_inconclusive) {
  const auto a = analyze(two_arms(), planted(1.3, 1, 10));
  EXPECT_EQ(find(a, "b.total_s").verdict, stats::verdict::inconclusive);
}

TEST(analysis, reference_is_compared_only_when_params_match) {
  manifest m = parse_manifest(R"({"project": "p", "build": {"targets": ["b"]}, "params": {"preset": "small"},
    "toggles": [{"id": "SLOW", "option": "O"}],
    "benchmarks": [{"name": "b", "format": "json", "command": ["{bin}/b"]}],
    "reference": {"label": "recorded", "params": {"preset": "big"}, "metrics": {"b.work_count": 1000}}})",
                              "/p/abtest.json");
  auto plan = two_arms();
  plan.params = {{"preset", "small"}};
  const auto s = planted(1.3, 5, 11);
  auto ref = compare_to_reference(m, plan, s);
  EXPECT_TRUE(ref.present);
  EXPECT_FALSE(ref.comparable);
  EXPECT_NE(ref.why.find("preset=big"), std::string::npos);
  plan.params["preset"] = "big";
  ref = compare_to_reference(m, plan, s);
  ASSERT_TRUE(ref.comparable);
  ASSERT_EQ(ref.rows.size(), 2u);
  EXPECT_EQ(ref.rows[0].verdict, stats::verdict::same);    // base: exactly the reference
  EXPECT_EQ(ref.rows[1].verdict, stats::verdict::slower);  // SLOW: 1.3× the reference
}

}  // namespace
}  // namespace abtest
