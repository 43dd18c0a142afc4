// Tests of the gbench / json / lines output parsers on crafted outputs, and of the format registry (design §4).
#include "harness/exec/format.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace abtest::exec {
namespace {

// A Google Benchmark 1.7 JSON report with two repetitions, its aggregates, a user counter and the
// abtest context keys; `time` lets a test vary one real_time.
std::string gbench_report(const std::string& rep0_time = "2.0", const std::string& unit = "ms") {
  return R"({
  "context": {"date": "2026-12-02T15:00:00+00:00", "host_name": "h", "num_cpus": 2,
              "abtest_digest": "9f2c", "abtest_verified": "true", "abtest_backend": "cpu",
              "library_build_type": "release"},
  "benchmarks": [
    {"name": "BM_synth/8", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_synth/8",
     "run_type": "iteration", "repetitions": 3, "repetition_index": 0, "threads": 1, "iterations": 10,
     "real_time": )" + rep0_time + R"(, "cpu_time": 1.9, "time_unit": ")" + unit + R"(", "work_count": 100},
    {"name": "BM_synth/8", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_synth/8",
     "run_type": "iteration", "repetitions": 3, "repetition_index": 1, "threads": 1, "iterations": 10,
     "real_time": 4.0, "cpu_time": 3.9, "time_unit": ")" + unit + R"(", "work_count": 100},
    {"name": "BM_synth/8", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_synth/8",
     "run_type": "iteration", "repetitions": 3, "repetition_index": 2, "threads": 1, "iterations": 10,
     "real_time": 3.0, "cpu_time": 2.9, "time_unit": ")" + unit + R"(", "work_count": 100},
    {"name": "BM_synth/8_mean", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_synth/8",
     "run_type": "aggregate", "repetitions": 3, "threads": 1, "aggregate_name": "mean",
     "aggregate_unit": "time", "iterations": 3, "real_time": 1000.0, "cpu_time": 1000.0, "time_unit": ")" + unit + R"("},
    {"name": "BM_synth/8_cv", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_synth/8",
     "run_type": "aggregate", "repetitions": 3, "threads": 1, "aggregate_name": "cv",
     "aggregate_unit": "percentage", "iterations": 3, "real_time": 0.2, "cpu_time": 0.2, "time_unit": ")" + unit + R"("}
  ]
})";
}

TEST(parse_gbench, median_of_repetitions_ignoring_aggregates) {
  const auto p = parse_gbench("synth", gbench_report());
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  ASSERT_TRUE(p.metrics.contains("synth.BM_synth_8_s"));
  EXPECT_DOUBLE_EQ(p.metrics.at("synth.BM_synth_8_s"), 3.0e-3);  // median of 2, 4, 3 ms; not the mean row
  EXPECT_DOUBLE_EQ(p.metrics.at("synth.BM_synth_8_work_count"), 100.0);
  EXPECT_DOUBLE_EQ(p.metrics.at("synth.BM_synth_8_cpu_s"), 2.9e-3);  // median of 1.9, 3.9, 2.9 ms
  EXPECT_EQ(p.metrics.size(), 3u);  // iterations, threads, ... are not metrics
}

TEST(parse_gbench, context_keys_become_checks_and_backend) {
  const auto p = parse_gbench("synth", gbench_report());
  EXPECT_EQ(p.checks.at("digest"), "9f2c");
  EXPECT_EQ(p.checks.at("verified"), "true");
  EXPECT_EQ(p.backend, "cpu");
  EXPECT_EQ(p.context.at("host_name"), "h");
}

TEST(parse_gbench, time_units_convert_to_seconds) {
  for (const auto& [unit, scale] : std::vector<std::pair<std::string, double>>{
           {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}}) {
    const auto p = parse_gbench("b", gbench_report("2.0", unit));
    ASSERT_EQ(p.status, sample_status::ok) << unit << ": " << p.error;
    EXPECT_DOUBLE_EQ(p.metrics.at("b.BM_synth_8_s"), 3.0 * scale) << unit;
  }
  EXPECT_EQ(parse_gbench("b", gbench_report("2.0", "fortnights")).status, sample_status::bad_output);
}

TEST(parse_gbench, bare_nan_and_inf_are_sanitized_and_dropped) {
  // One repetition's real_time is NaN: it is left out, the median is over the other two.
  for (const char* token : {"NaN", "nan", "-nan", "inf", "-inf", "Infinity", "-Infinity"}) {
    const auto p = parse_gbench("b", gbench_report(token));
    ASSERT_EQ(p.status, sample_status::ok) << token << ": " << p.error;
    EXPECT_DOUBLE_EQ(p.metrics.at("b.BM_synth_8_s"), 3.5e-3) << token;
  }
}

TEST(parse_gbench, aggregates_only_report_uses_the_median_rows) {
  const std::string text = R"({"benchmarks": [
    {"name": "BM_x_mean", "run_name": "BM_x", "run_type": "aggregate", "aggregate_name": "mean",
     "real_time": 10, "time_unit": "us", "iterations": 3, "work_count": 5},
    {"name": "BM_x_median", "run_name": "BM_x", "run_type": "aggregate", "aggregate_name": "median",
     "real_time": 8, "time_unit": "us", "iterations": 3, "work_count": 5},
    {"name": "BM_x_stddev", "run_name": "BM_x", "run_type": "aggregate", "aggregate_name": "stddev",
     "real_time": 1, "time_unit": "us", "iterations": 3, "work_count": 0}]})";
  const auto p = parse_gbench("g", text);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("g.BM_x_s"), 8e-6);
  EXPECT_DOUBLE_EQ(p.metrics.at("g.BM_x_work_count"), 5);
  EXPECT_EQ(p.metrics.size(), 2u);
}

TEST(parse_gbench, names_are_sanitized) {
  const std::string text = R"({"benchmarks": [{"name": "BM_x<int>/threads:2/real_time", "run_type": "iteration",
    "real_time": 5, "time_unit": "ns", "iterations": 1}]})";
  const auto p = parse_gbench("g", text);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_TRUE(p.metrics.contains("g.BM_x_int__threads_2_real_time_s"));
}

// Run settings (a fixed iteration count, min_time, repetitions) do not rename a metric; arguments,
// threads and the time mode do.
TEST(parse_gbench, run_settings_leave_the_metric_name_alone) {
  const std::string text = R"({"benchmarks": [
    {"name": "synthesis/iterations:3", "run_type": "iteration", "real_time": 5, "time_unit": "ms", "iterations": 3, "cpu_s": 0.4},
    {"name": "BM_y/8/min_time:0.500/repeats:2/threads:2/real_time", "run_type": "iteration", "real_time": 7, "time_unit": "ns",
     "iterations": 1}]})";
  const auto p = parse_gbench("g", text);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("g.synthesis_s"), 0.005);
  EXPECT_DOUBLE_EQ(p.metrics.at("g.synthesis_cpu_s"), 0.4);
  EXPECT_TRUE(p.metrics.contains("g.BM_y_8_threads_2_real_time_s"));
  EXPECT_EQ(p.metrics.size(), 3u);
}

TEST(parse_gbench, error_rows_make_bad_output) {
  const std::string text = R"({"benchmarks": [{"name": "BM_x", "run_type": "iteration", "error_occurred": true,
    "error_message": "no device", "real_time": 0, "time_unit": "ns", "iterations": 0}]})";
  const auto p = parse_gbench("g", text);
  EXPECT_EQ(p.status, sample_status::bad_output);
  EXPECT_NE(p.error.find("no device"), std::string::npos) << p.error;
}

TEST(parse_gbench, garbage_empty_and_no_metrics) {
  EXPECT_EQ(parse_gbench("g", "").status, sample_status::bad_output);
  EXPECT_EQ(parse_gbench("g", "Running ./bench\nBM_x 12 ns").status, sample_status::bad_output);
  EXPECT_EQ(parse_gbench("g", "[1, 2]").status, sample_status::bad_output);
  EXPECT_EQ(parse_gbench("g", R"({"context": {}})").status, sample_status::bad_output);
  EXPECT_EQ(parse_gbench("g", R"({"benchmarks": [1]})").status, sample_status::bad_output);
  const auto truncated = gbench_report().substr(0, 300);
  const auto t = parse_gbench("g", truncated);
  EXPECT_EQ(t.status, sample_status::bad_output);
  EXPECT_NE(t.error.find("--benchmark_format=json"), std::string::npos) << t.error;
  const auto none = parse_gbench("g", R"({"context": {}, "benchmarks": []})");
  EXPECT_EQ(none.status, sample_status::no_metrics);
  EXPECT_FALSE(none.error.empty());
}

TEST(parse_json, metrics_checks_backend_context) {
  const auto p = parse_json("proof", R"({"metrics": {"total_s": 1.92, "synthesis_s": 1.10, "work_count": 7},
    "checks": {"verified": true, "digest": "9f2c", "n": 3}, "backend": "cuda", "context": {"gpu": "x"},
    "extra": [1, 2]})");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("proof.total_s"), 1.92);
  EXPECT_DOUBLE_EQ(p.metrics.at("proof.synthesis_s"), 1.10);
  EXPECT_DOUBLE_EQ(p.metrics.at("proof.work_count"), 7);
  EXPECT_EQ(p.checks.at("verified"), "true");
  EXPECT_EQ(p.checks.at("digest"), "9f2c");
  EXPECT_EQ(p.checks.at("n"), "3");
  EXPECT_EQ(p.backend, "cuda");
  EXPECT_EQ(p.context.at("gpu"), "x");
}

TEST(parse_json, verified_false_is_kept_as_text) {
  const auto p = parse_json("b", R"({"metrics": {"total_s": 1}, "checks": {"verified": false}})");
  ASSERT_EQ(p.status, sample_status::ok);
  EXPECT_EQ(p.checks.at("verified"), "false");
}

TEST(parse_json, nan_metric_is_dropped) {
  const auto p = parse_json("b", R"({"metrics": {"total_s": NaN, "ntt_s": 0.5, "msm_s": -inf}})");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_EQ(p.metrics.size(), 1u);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.ntt_s"), 0.5);
}

TEST(parse_json, garbage_empty_wrong_types) {
  for (const char* bad : {"", "   ", "garbage", "{\"metrics\": {\"total_s\": 1}", "[]", "42",
                          "{\"metrics\": [1]}", "{\"metrics\": {\"total_s\": \"1.9\"}}",
                          "{\"metrics\": {\"total_s\": true}}", "{\"metrics\": {\"t\": 1}, \"checks\": []}",
                          "{\"metrics\": {\"t\": 1}, \"backend\": 3}", "{\"metrics\": {\"t\": 1}} trailing"}) {
    const auto p = parse_json("b", bad);
    EXPECT_EQ(p.status, sample_status::bad_output) << bad;
    EXPECT_NE(p.error.find(" — "), std::string::npos) << p.error;
  }
}

TEST(parse_json, valid_without_metrics_is_no_metrics) {
  EXPECT_EQ(parse_json("b", "{}").status, sample_status::no_metrics);
  EXPECT_EQ(parse_json("b", R"({"metrics": {}, "checks": {"verified": true}})").status, sample_status::no_metrics);
  EXPECT_EQ(parse_json("b", R"({"metrics": {"t": null}})").status, sample_status::no_metrics);
}

TEST(parse_lines, units_convert_and_name_gets_seconds_suffix) {
  const std::string out =
      "starting\n"
      "CUZK_TIMING: ntt_h 690 ms\n"
      "CUZK_TIMING: msm_a 1.5 s\n"
      "CUZK_TIMING: pin 250 us\r\n"
      "CUZK_TIMING: tiny 40 ns\n"
      "CUZK_TIMING: total_s 2.5 s\n"
      "CUZK_COUNT: partitions 10\n";
  const auto p = parse_lines("proof", R"((?:CUZK_TIMING|CUZK_COUNT): (\w+) ([0-9.]+) ?(s|ms|us|ns)?)", out);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("proof.ntt_h_s"), 0.69);
  EXPECT_DOUBLE_EQ(p.metrics.at("proof.msm_a_s"), 1.5);
  EXPECT_DOUBLE_EQ(p.metrics.at("proof.pin_s"), 250e-6);
  EXPECT_DOUBLE_EQ(p.metrics.at("proof.tiny_s"), 40e-9);
  EXPECT_DOUBLE_EQ(p.metrics.at("proof.total_s"), 2.5);
  EXPECT_DOUBLE_EQ(p.metrics.at("proof.partitions"), 10);
  EXPECT_EQ(p.metrics.size(), 6u);
}

TEST(parse_lines, repeated_names_take_the_median) {
  const auto p = parse_lines("b", R"(T: (\w+) ([0-9.]+))", "T: x 5\nT: x 1\nT: x 3\nT: y 2\nT: y 4\n");
  ASSERT_EQ(p.status, sample_status::ok);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.x"), 3);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.y"), 3);
}

TEST(parse_lines, searches_stdout_and_stderr) {
  const auto p = parse_output("lines", "b", {{"pattern", R"(T: (\w+) ([0-9.]+))"}}, format_input{"T: a 1", "T: b 2\n", {}});
  ASSERT_EQ(p.status, sample_status::ok);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.a"), 1);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.b"), 2);
}

TEST(parse_lines, bad_pattern_value_or_unit) {
  EXPECT_EQ(parse_lines("b", "T: (\\w+ ([0-9.]+)", "T: a 1").status, sample_status::bad_output);  // unbalanced
  EXPECT_EQ(parse_lines("b", "T: \\w+ [0-9.]+", "T: a 1").status, sample_status::bad_output);     // no groups
  EXPECT_EQ(parse_lines("b", R"(T: (\w+) ([0-9.]+))", "T: a 1.2.3").status, sample_status::bad_output);
  const auto unit = parse_lines("b", R"(T: (\w+) ([0-9.]+) (\w+))", "T: a 1 fortnights");
  EXPECT_EQ(unit.status, sample_status::bad_output);
  EXPECT_NE(unit.error.find("fortnights"), std::string::npos) << unit.error;
}

TEST(parse_lines, nothing_matching_is_no_metrics) {
  EXPECT_EQ(parse_lines("b", R"(T: (\w+) ([0-9.]+))", "").status, sample_status::no_metrics);
  EXPECT_EQ(parse_lines("b", R"(T: (\w+) ([0-9.]+))", "hello\nworld\n").status, sample_status::no_metrics);
}

TEST(sanitize_json_numbers, only_bare_tokens_outside_strings) {
  EXPECT_EQ(sanitize_json_numbers(R"({"a": NaN, "b": -inf, "c": "NaN inf", "d": "x\"inf", "e": 1e5, "f": true})"),
            R"({"a": null, "b": null, "c": "NaN inf", "d": "x\"inf", "e": 1e5, "f": true})");
  EXPECT_EQ(sanitize_json_numbers("[+Infinity, -nan, nan]"), "[null, null, null]");
  EXPECT_TRUE(nlohmann::json::accept(sanitize_json_numbers(R"({"x": [NaN, -Infinity, 1.5]})")));
}

TEST(sanitize_metric_name, replaces_everything_outside_word_characters) {
  EXPECT_EQ(sanitize_metric_name("BM_a/8:threads-2.x"), "BM_a_8_threads_2_x");
  EXPECT_EQ(sanitize_metric_name("ok_Name9"), "ok_Name9");
}

TEST(output_formats, every_row_is_found_by_its_name_and_parses_garbage_without_throwing) {
  for (const auto* row : output_formats()) {
    EXPECT_EQ(find_output_format(row->name), row);
    EXPECT_NE(output_format_names().find(row->name), std::string::npos);
    EXPECT_NO_THROW(row->parse("b", nlohmann::json::object(), format_input{"\x01{[garbage", "", {}})) << row->name;
  }
  EXPECT_EQ(find_output_format("csv"), nullptr);
  EXPECT_EQ(parse_text("csv", "b", "x").status, sample_status::bad_output);
}

}  // namespace
}  // namespace abtest::exec
