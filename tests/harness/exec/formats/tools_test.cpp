// Tests of the formats that read a tool's report — hyperfine, pytest-benchmark, Catch2 — on the real
// tools' output (tests/fixtures/formats/<tool>/make.sh), mostly as the file at {out}.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <regex>

#include "harness/exec/format.hpp"
#include "tests/harness/exec/formats/fixture.hpp"

namespace abtest::exec {
namespace {
using test::fixture;
using test::fixture_path;

parsed_output at_out(const std::string& format, const std::string& file) {
  return parse_output(format, "b", {}, format_input{"console text, not the report", "", fixture_path(file)});
}

TEST(hyperfine_format, mean_and_median_of_each_command_or_its_name) {
  const auto doc = nlohmann::json::parse(fixture("hyperfine/hyperfine.json"));
  const auto p = at_out("hyperfine", "hyperfine/hyperfine.json");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_EQ(p.metrics.size(), 4u);
  // -n ten_ms names the first command; the second keeps its command line.
  EXPECT_DOUBLE_EQ(p.metrics.at("b.ten_ms_s"), doc["results"][0]["mean"].get<double>());
  EXPECT_DOUBLE_EQ(p.metrics.at("b.ten_ms_median_s"), doc["results"][0]["median"].get<double>());
  EXPECT_DOUBLE_EQ(p.metrics.at("b.sleep_0_02_s"), doc["results"][1]["mean"].get<double>());
}

TEST(hyperfine_format, a_missing_report_or_console_text_is_bad_output) {
  const auto missing = parse_output("hyperfine", "b", {}, format_input{"", "", "/nonexistent/abtest/out"});
  EXPECT_EQ(missing.status, sample_status::bad_output);
  EXPECT_NE(missing.error.find("{out}"), std::string::npos) << missing.error;
  const auto text = parse_text("hyperfine", "b", "Benchmark 1: sleep 0.01\n  Time (mean ± σ): 10.2 ms\n");
  EXPECT_EQ(text.status, sample_status::bad_output);
  EXPECT_NE(text.error.find("--export-json {out}"), std::string::npos) << text.error;
}

TEST(pytest_benchmark_format, mean_and_median_of_each_test) {
  const auto doc = nlohmann::json::parse(fixture("pytest-benchmark/pytest-benchmark.json"));
  const auto p = at_out("pytest-benchmark", "pytest-benchmark/pytest-benchmark.json");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_EQ(p.metrics.size(), 4u);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.test_sum_small_s"), doc["benchmarks"][0]["stats"]["mean"].get<double>());
  EXPECT_DOUBLE_EQ(p.metrics.at("b.test_sum_10000__median_s"), doc["benchmarks"][1]["stats"]["median"].get<double>());
}

TEST(pytest_benchmark_format, wrong_shapes_are_bad_output) {
  EXPECT_EQ(parse_text("pytest-benchmark", "b", R"({"benchmarks": [{"name": "x"}]})").status, sample_status::bad_output);
  EXPECT_EQ(parse_text("pytest-benchmark", "b", R"({"benchmarks": [{"name": "x", "stats": {"mean": "1"}}]})").status,
            sample_status::bad_output);
  EXPECT_EQ(parse_text("pytest-benchmark", "b", R"({"benchmarks": []})").status, sample_status::no_metrics);
}

TEST(catch2_format, each_benchmarks_mean_with_its_name_unescaped) {
  const std::string xml = fixture("catch2/catch2.xml");
  std::smatch first_mean;
  ASSERT_TRUE(std::regex_search(xml, first_mean, std::regex(R"re(<mean value="([^"]+)")re")));
  const auto p = parse_text("catch2", "b", xml);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  ASSERT_EQ(p.metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.sum_1000_s"), std::stod(first_mean[1]) * 1e-9);
  // "sum&lt;10000> &amp; more" is the benchmark "sum<10000> & more".
  EXPECT_GT(p.metrics.at("b.sum_10000____more_s"), 0.0);
  // -o {out}: the same XML from the file.
  EXPECT_EQ(at_out("catch2", "catch2/catch2.xml").metrics, p.metrics);
}

TEST(catch2_format, cut_or_foreign_xml) {
  EXPECT_EQ(parse_text("catch2", "c", R"(<BenchmarkResults name="x"><mean value="1"/>)").status, sample_status::bad_output);
  EXPECT_EQ(parse_text("catch2", "c", R"(<BenchmarkResults name="x"><mean value="fast"/></BenchmarkResults>)").status,
            sample_status::bad_output);
  EXPECT_EQ(parse_text("catch2", "c", R"(<Catch><TestCase name="t"/></Catch>)").status, sample_status::no_metrics);
}

}  // namespace
}  // namespace abtest::exec
