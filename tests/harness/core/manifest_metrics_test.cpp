// The manifest's `better` / `margin` declarations (design §4): what they set, that a plan
// keeps them, and each bad input named with its key and fix.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "tests/harness/core/manifest_error.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"

namespace abtest {
namespace {

using json = nlohmann::json;

json with_metrics() {
  return json::parse(R"json({
    "project": "p",
    "build": {"targets": ["bench", "gb"]},
    "toggles": [{"id": "A1", "option": "OPT_A1"}],
    "benchmarks": [
      {"name": "proof", "format": "json", "command": ["{bin}/bench"], "margin": 5},
      {"name": "gb", "format": "gbench", "command": ["{bin}/gb"], "better": "lower"},
      {"name": "zstd", "format": "lines", "pattern": "(\\w+) ([0-9.]+)", "command": ["{bin}/bench"], "better": "higher"}
    ],
    "metrics": {"*_items_per_second": {"better": "higher"}, "proof.total_s": {"margin": 3}}
  })json");
}

std::string error_of(const json& doc) { return test::manifest_error_of(doc); }

TEST(manifest_metrics, declarations_set_direction_and_margin_per_benchmark_and_metric) {
  const manifest m = parse_manifest(with_metrics().dump(), "/p/abtest.json");
  ASSERT_EQ(m.metric_rules.size(), 5u);
  run_plan plan;
  plan.margin = 0.01;
  plan.metric_rules = m.metric_rules;
  const auto total = plan.policy("proof.total_s");
  EXPECT_DOUBLE_EQ(total.margin, 0.03);  // the metric's own over the benchmark's 5%
  EXPECT_EQ(total.margin_from, stats::policy_source::manifest);
  EXPECT_EQ(total.direction, stats::better::lower);
  EXPECT_DOUBLE_EQ(plan.policy("proof.synthesis_s").margin, 0.05);
  // The glob beats the benchmark's `better: lower`; the benchmark's own covers its other metrics.
  EXPECT_EQ(plan.policy("gb.BM_copy_items_per_second").direction, stats::better::higher);
  EXPECT_EQ(plan.policy("gb.BM_copy_s").direction, stats::better::lower);
  EXPECT_EQ(plan.policy("gb.BM_copy_s").direction_from, stats::policy_source::manifest);
  EXPECT_DOUBLE_EQ(plan.policy("gb.BM_copy_s").margin, 0.01);  // --margin
  // A `lines` metric whose name says nothing, declared higher.
  EXPECT_EQ(plan.policy("zstd.level3_mb").direction, stats::better::higher);
}

// A stored plan judges its metrics the same way when read back (compare, report).
TEST(manifest_metrics, a_plan_keeps_its_rules_through_json) {
  const manifest m = parse_manifest(with_metrics().dump(), "/p/abtest.json");
  run_plan plan;
  plan.arms = {arm_plan{"base", {}, "baseline", {}, {}, std::nullopt, {}, {}}};
  plan.margin = 0.02;
  plan.metric_rules = m.metric_rules;
  const run_plan back = run_plan::from_json(json::parse(plan.to_json().dump()));
  ASSERT_EQ(back.metric_rules.size(), m.metric_rules.size());
  for (const char* metric : {"proof.total_s", "proof.x_s", "gb.BM_items_per_second", "gb.BM_s", "zstd.level3_mb"}) {
    EXPECT_EQ(back.policy(metric).direction, plan.policy(metric).direction) << metric;
    EXPECT_DOUBLE_EQ(back.policy(metric).margin, plan.policy(metric).margin) << metric;
    EXPECT_EQ(back.policy(metric).margin_from, plan.policy(metric).margin_from) << metric;
  }
  // A plan stored before the rules existed has none: inference and its margin.
  json old = plan.to_json();
  old.erase("metric_rules");
  EXPECT_TRUE(run_plan::from_json(old).metric_rules.empty());
  EXPECT_EQ(run_plan::from_json(old).policy("gb.BM_items_per_second").direction_from, stats::policy_source::inferred);
}

TEST(manifest_metrics, bad_declarations_name_the_key_and_the_fix) {
  auto doc = with_metrics();
  doc["benchmarks"][1]["better"] = "up";
  auto e = error_of(doc);
  EXPECT_NE(e.find("benchmarks[1].better: must be \"lower\" or \"higher\""), std::string::npos) << e;
  EXPECT_NE(e.find(" — "), std::string::npos) << e;

  doc = with_metrics();
  doc["benchmarks"][0]["margin"] = 150;
  e = error_of(doc);
  EXPECT_NE(e.find("benchmarks[0].margin: must be a percentage in [0, 100)"), std::string::npos) << e;
  doc["benchmarks"][0]["margin"] = "3%";
  EXPECT_NE(error_of(doc).find("benchmarks[0].margin"), std::string::npos);

  doc = with_metrics();
  doc["metrics"]["proof.total_s"] = {{"margin", 3}, {"direction", "lower"}};
  e = error_of(doc);
  EXPECT_NE(e.find("metrics.proof.total_s.direction: unknown key"), std::string::npos) << e;
  EXPECT_NE(e.find("better, margin"), std::string::npos) << e;

  doc = with_metrics();
  doc["metrics"]["proof.total_s"] = json::object();
  EXPECT_NE(error_of(doc).find("metrics.proof.total_s: must be an object with \"better\" and/or \"margin\""), std::string::npos);

  doc = with_metrics();
  doc["metrics"]["prof.total_s"] = {{"margin", 3}};
  e = error_of(doc);
  EXPECT_NE(e.find("names benchmark \"prof\", which the manifest does not list"), std::string::npos) << e;

  doc = with_metrics();
  doc["metrics"]["total_s"] = {{"margin", 3}};
  EXPECT_NE(error_of(doc).find("metrics.total_s: is not a metric name"), std::string::npos);

  doc = with_metrics();
  doc["metrics"]["proof.total s"] = {{"margin", 3}};
  EXPECT_NE(error_of(doc).find("is not a metric name or pattern"), std::string::npos);

  doc = with_metrics();
  doc["metrics"] = json::array();
  EXPECT_NE(error_of(doc).find("metrics: must be an object"), std::string::npos);

  doc = with_metrics();
  doc["benchmarks"][0]["beter"] = "higher";
  EXPECT_NE(error_of(doc).find("benchmarks[0].beter: unknown key"), std::string::npos);
}

}  // namespace
}  // namespace abtest
