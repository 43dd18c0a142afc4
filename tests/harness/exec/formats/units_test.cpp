// Units reach the direction inference (design §4): where a format knows a metric's unit and the
// benchmark's own name says nothing of it, the parser writes the unit into the metric's name
// (`copy` at `MB/s` → `copy_mb_per_s`) — the one key that flows from the sample through the plan's
// metric_rules, the store, history and pr — so a rate rising reads HIGHER (better) with no manifest
// entry and nothing stored beside the name.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/exec/format.hpp"
#include "harness/stats/metric_policy.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::exec {
namespace {

// The label a rise of `metric` gets with no manifest rule: the policy run, report and pr resolve.
std::string label_of_a_rise(const std::string& metric) {
  const auto policy = stats::resolve_policy({}, metric, stats::default_margin);
  // A rate is inferred so; a time is better lower by default (nothing to infer).
  EXPECT_EQ(policy.direction_from, policy.direction == stats::better::higher ? stats::policy_source::inferred
                                                                            : stats::policy_source::fallback) << metric;
  // A rate's rise is the verdict `faster` (+1 on the log scale for a better-higher metric).
  const auto v = policy.direction == stats::better::higher ? stats::verdict::faster : stats::verdict::slower;
  return stats::verdict_label(metric, v, policy.direction);
}

TEST(units_reach_direction, json_extractor_unit_key) {
  // The rows are named `copy` and `scan`: only the `unit` key says they are rates.
  const auto p = parse_text("json", "io", R"({"rows": [{"op": "copy", "v": 6400}, {"op": "scan", "v": "1,200"}]})",
                            {{"rows", "rows"}, {"name_field", "op"}, {"value_field", "v"}, {"unit", "MB/s"}});
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  ASSERT_TRUE(p.metrics.contains("io.copy_mb_per_s"));
  EXPECT_EQ(label_of_a_rise("io.copy_mb_per_s"), "HIGHER (better)");
  EXPECT_EQ(stats::infer_better("io.copy"), std::nullopt);  // the name alone says nothing
}

TEST(units_reach_direction, lines_pattern_unit_group) {
  const nlohmann::json options = {{"patterns", {{"copy", R"(copy: ([0-9.]+) (\S+))"}}}};
  const auto p = parse_text("lines", "mem", "copy: 12.5 GiB/s\n", options);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  ASSERT_TRUE(p.metrics.contains("mem.copy_gib_per_s"));
  EXPECT_EQ(label_of_a_rise("mem.copy_gib_per_s"), "HIGHER (better)");
  // The same pattern on a time: the unit makes it a time, better lower.
  const auto t = parse_text("lines", "mem", "copy: 12.5 ms\n", options);
  ASSERT_EQ(t.status, sample_status::ok) << t.error;
  EXPECT_EQ(label_of_a_rise("mem.copy_s"), "SLOWER");
}

TEST(units_reach_direction, libtest_throughput) {
  const auto p = parse_text("libtest", "lt", "test copy ... bench:       1,234 ns/iter (+/- 56) = 8,300 MB/s\n");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_EQ(label_of_a_rise("lt.copy_mb_per_s"), "HIGHER (better)");
  EXPECT_EQ(label_of_a_rise("lt.copy_s"), "SLOWER");
}

}  // namespace
}  // namespace abtest::exec
