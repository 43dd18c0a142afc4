// Tests of format `json` as a declarative extractor (rows, name, value, unit, where; JSON Lines; the
// file at {out}) and of `gbench` reading Google Benchmark's own --benchmark_out file
// (tests/fixtures/formats/gbench/make.sh).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/exec/format.hpp"
#include "tests/harness/exec/formats/fixture.hpp"

namespace abtest::exec {
namespace {
using nlohmann::json;
using test::fixture;
using test::fixture_path;

TEST(json_format, extracts_rows_from_a_tools_report_at_out) {
  // hyperfine's export read through the extractor instead of its own format.
  const json options = {{"rows", "results"}, {"name_field", "command"}, {"value_field", "median"}, {"unit", "s"}};
  const auto doc = json::parse(fixture("hyperfine/hyperfine.json"));
  const auto p = parse_output("json", "h", options, format_input{"", "", fixture_path("hyperfine/hyperfine.json")});
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_EQ(p.metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(p.metrics.at("h.ten_ms_s"), doc["results"][0]["median"].get<double>());
}

TEST(json_format, nested_value_paths_units_and_json_pointer) {
  const std::string text = R"({"run": {"cases": [{"id": "fft/1024", "t": {"ns": 1500}}, {"id": "fft/2048", "t": {"ns": "3,100"}}]}})";
  const auto p = parse_text("json", "b", text, {{"rows", "/run/cases"}, {"name_field", "id"}, {"value_field", "t.ns"}, {"unit", "ns"}});
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("b.fft_1024_s"), 1.5e-6);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.fft_2048_s"), 3.1e-6);
  // An object of rows: each member's key names it; a rate keeps its scale.
  const auto q = parse_text("json", "b", R"({"read": {"bw": 812.5}, "write": {"bw": 640}})", {{"value_field", "bw"}, {"unit", "MiB/s"}});
  ASSERT_EQ(q.status, sample_status::ok) << q.error;
  EXPECT_DOUBLE_EQ(q.metrics.at("b.read_mib_per_s"), 812.5);
  EXPECT_DOUBLE_EQ(q.metrics.at("b.write_mib_per_s"), 640);
}

TEST(json_format, json_lines_filtered_by_where) {
  // cargo-criterion's message stream through the extractor: only benchmark-complete messages.
  const std::string text =
      "{\"reason\":\"group-complete\",\"group_name\":\"g\"}\n"
      "not json: a log line\n"
      "{\"reason\":\"benchmark-complete\",\"id\":\"g/a\",\"typical\":{\"estimate\":120.5,\"unit\":\"ns\"}}\n"
      "{\"reason\":\"benchmark-complete\",\"id\":\"g/b\",\"typical\":{\"estimate\":240,\"unit\":\"ns\"}}\n";
  const json options = {{"name_field", "id"}, {"value_field", "typical.estimate"}, {"unit", "ns"}, {"where", {{"reason", "benchmark-complete"}}}};
  const auto p = parse_text("json", "c", text, options);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_EQ(p.metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(p.metrics.at("c.g_a_s"), 120.5e-9);
}

TEST(json_format, the_protocol_is_unchanged_without_value_and_reads_out_too) {
  const auto p = parse_text("json", "b", R"({"metrics": {"total_s": 1.5}, "checks": {"verified": true}})");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("b.total_s"), 1.5);
  EXPECT_EQ(p.checks.at("verified"), "true");
  const auto missing = parse_output("json", "b", {}, format_input{"", "", "/nonexistent/abtest/out"});
  EXPECT_EQ(missing.status, sample_status::bad_output);
}

TEST(json_format, bad_rows_and_keys) {
  const json options = {{"rows", "r"}, {"name_field", "n"}, {"value_field", "v"}};
  EXPECT_EQ(parse_text("json", "b", R"({"r": [{"n": "x", "v": "fast"}]})", options).status, sample_status::bad_output);
  EXPECT_EQ(parse_text("json", "b", R"({"r": [{"v": 1}]})", options).status, sample_status::bad_output);
  const auto collide = parse_text("json", "b", R"({"r": [{"n": "a/b", "v": 1}, {"n": "a b", "v": 2}]})", options);
  EXPECT_EQ(collide.status, sample_status::bad_output);
  EXPECT_NE(collide.error.find("both become"), std::string::npos) << collide.error;
  EXPECT_EQ(parse_text("json", "b", R"({"r": []})", options).status, sample_status::no_metrics);
  const auto* row = find_output_format("json");
  EXPECT_THROW(row->options({{"rows", "r"}}), format_key_error);              // no value
  EXPECT_THROW(row->options({{"value_field", "v"}, {"unit", "furlongs"}}), format_key_error);
  EXPECT_THROW(row->options({{"value_field", 3}}), format_key_error);
  EXPECT_EQ(row->options(json::object()), json::object());
}

TEST(gbench_format, reads_benchmark_out_with_cpu_time_and_counters) {
  const auto doc = json::parse(fixture("gbench/gbench.json"));
  const auto p = parse_output("gbench", "g", {}, format_input{"console table on stdout", "", fixture_path("gbench/gbench.json")});
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  for (const char* name : {"g.BM_sum_1024_s", "g.BM_sum_1024_cpu_s", "g.BM_sum_1024_items_per_second",
                           "g.BM_sum_1024_bytes_per_second", "g.BM_sum_16384_s"})
    EXPECT_TRUE(p.metrics.contains(name)) << name;
  // Two repetitions: the median of two is their mean.
  std::vector<double> cpu;
  for (const auto& row : doc["benchmarks"])
    if (row["run_name"] == "BM_sum/1024" && row["run_type"] == "iteration") cpu.push_back(row["cpu_time"].get<double>());
  ASSERT_EQ(cpu.size(), 2u);
  EXPECT_NEAR(p.metrics.at("g.BM_sum_1024_cpu_s"), (cpu[0] + cpu[1]) / 2 * 1e-9, 1e-15);
}

// A user counter `cpu_s` (the model's synth-bench reports the synthesis's CPU seconds so) takes the
// name cpu_time would have had; cpu_time moves to `_cpu_time_s`, and both are kept. Before, the two
// met as synthesis_cpu_s and every sample of the README's main job was refused as bad output.
TEST(gbench_format, a_counter_named_cpu_s_keeps_its_name_and_cpu_time_moves_aside) {
  const auto p = parse_gbench("synth", R"({"benchmarks": [
    {"name": "synthesis", "run_type": "iteration", "real_time": 500, "cpu_time": 400, "time_unit": "ms",
     "iterations": 1, "cpu_s": 0.75}]})");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("synth.synthesis_s"), 0.5);
  EXPECT_DOUBLE_EQ(p.metrics.at("synth.synthesis_cpu_time_s"), 0.4);
  EXPECT_DOUBLE_EQ(p.metrics.at("synth.synthesis_cpu_s"), 0.75);
}

TEST(gbench_format, names_that_meet_after_sanitising_are_bad_output) {
  const auto p = parse_gbench("g", R"({"benchmarks": [
    {"name": "BM_x/8", "run_type": "iteration", "real_time": 5, "time_unit": "ns", "iterations": 1},
    {"name": "BM_x_8", "run_type": "iteration", "real_time": 7, "time_unit": "ns", "iterations": 1}]})");
  EXPECT_EQ(p.status, sample_status::bad_output);
  EXPECT_NE(p.error.find("'BM_x/8' and 'BM_x_8'"), std::string::npos) << p.error;
}

}  // namespace
}  // namespace abtest::exec
