// Tests of format `criterion` on Criterion 0.3.6's own output (tests/fixtures/formats/criterion/make.sh).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/exec/format.hpp"
#include "tests/harness/exec/formats/fixture.hpp"

namespace abtest::exec {
namespace {
using test::fixture;
using test::fixture_path;

const std::string short_id = "b.sum_1000_s";
const std::string long_id = "b.sums_a_long_benchmark_name_that_wraps_4000_s";

double slope_ns(const std::string& dir) {
  const auto j = nlohmann::json::parse(fixture("criterion/estimates/" + dir + "/new/estimates.json"));
  return j.at("slope").at("point_estimate").get<double>();
}

TEST(criterion_format, reads_each_bench_ids_slope_from_the_estimates_under_criterion_home) {
  const auto p = parse_output("criterion", "b", {}, format_input{"", "", fixture_path("criterion/estimates")});
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  ASSERT_EQ(p.metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(p.metrics.at(short_id), slope_ns("sum 1000") * 1e-9);
  EXPECT_DOUBLE_EQ(p.metrics.at(long_id), slope_ns("sums/a_long_benchmark_name_that_wraps/4000") * 1e-9);
  // The confidence interval is kept beside the estimate.
  const auto& ci = p.context.at("criterion").at("sum 1000");
  EXPECT_EQ(ci.at("estimate"), "slope");
  EXPECT_LT(ci.at("lower_ns").get<double>(), ci.at("ns").get<double>());
  EXPECT_GT(ci.at("upper_ns").get<double>(), ci.at("ns").get<double>());
}

TEST(criterion_format, the_console_names_a_long_id_from_the_line_before) {
  // console.txt: `sum 1000                time:   [743.29 ns 811.31 ns 903.05 ns]` and the long id alone
  // on its line, `time:   [3.5200 µs 3.6790 µs 3.8224 µs]` below it; `change:` lines in between.
  const auto p = parse_text("criterion", "b", fixture("criterion/console.txt"));
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  ASSERT_EQ(p.metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(p.metrics.at(short_id), 811.31e-9);
  EXPECT_DOUBLE_EQ(p.metrics.at(long_id), 3.6790e-6);
}

TEST(criterion_format, an_empty_criterion_home_falls_back_to_stdout) {
  const auto p = parse_output("criterion", "b", {}, format_input{fixture("criterion/console.txt"), "", "/nonexistent/abtest"});
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_EQ(p.metrics.size(), 2u);
}

TEST(criterion_format, bencher_output_is_read_as_libtest_lines) {
  const auto p = parse_text("criterion", "b", fixture("criterion/bencher.txt"));
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_EQ(p.metrics.size(), 2u);
  EXPECT_TRUE(p.metrics.contains(long_id));
}

TEST(criterion_format, cargo_criterion_messages) {
  // The message cargo-criterion prints per bench with --message-format=json (its documented
  // `benchmark-complete` shape; cargo-criterion is not in Debian), between other messages.
  const std::string text =
      R"({"reason":"group-complete","group_name":"sums","benchmarks":["sums/x/4000"],"report_directory":"target/criterion/reports/sums"})" "\n"
      R"({"reason":"benchmark-complete","id":"sum 1000","report_directory":"target/criterion/reports/sum 1000","iteration_count":[1,2],"measured_values":[800.0,1600.0],"unit":"ns","throughput":[],"typical":{"estimate":811.5,"lower_bound":790.1,"upper_bound":830.2,"unit":"ns"},"mean":{"estimate":820.0,"lower_bound":800.0,"upper_bound":840.0,"unit":"ns"},"median":{"estimate":815.0,"lower_bound":805.0,"upper_bound":825.0,"unit":"ns"},"median_abs_dev":{"estimate":5.0,"lower_bound":1.0,"upper_bound":9.0,"unit":"ns"},"slope":{"estimate":811.5,"lower_bound":790.1,"upper_bound":830.2,"unit":"ns"},"change":null})" "\n";
  const auto p = parse_text("criterion", "b", text);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  ASSERT_EQ(p.metrics.size(), 1u);
  EXPECT_DOUBLE_EQ(p.metrics.at(short_id), 811.5e-9);
}

TEST(criterion_format, ids_that_collide_after_sanitising_are_bad_output) {
  const auto p = parse_text("criterion", "b",
                            "sum/1000                time:   [1.0 ns 2.0 ns 3.0 ns]\n"
                            "sum 1000                time:   [1.0 ns 4.0 ns 5.0 ns]\n");
  EXPECT_EQ(p.status, sample_status::bad_output);
  EXPECT_NE(p.error.find("'sum/1000' and 'sum 1000'"), std::string::npos) << p.error;
}

TEST(criterion_format, garbage_is_no_metrics_or_bad_output) {
  EXPECT_EQ(parse_text("criterion", "b", "").status, sample_status::no_metrics);
  EXPECT_EQ(parse_text("criterion", "b", "Benchmarking x: Analyzing\n").status, sample_status::no_metrics);
  EXPECT_EQ(parse_text("criterion", "b", "x   time:   [1.0 ns 2.0 fortnights 3.0 ns]\n").status, sample_status::bad_output);
}

}  // namespace
}  // namespace abtest::exec
