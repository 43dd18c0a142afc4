// Tests of run_benchmark: status precedence, parser wiring and the process metrics of every sample.
#include "harness/exec/executor.hpp"

#include <signal.h>

#include <filesystem>

#include <gtest/gtest.h>

namespace abtest::exec {
namespace {

const std::string child = ABTEST_EXEC_TEST_CHILD;

benchmark_invocation invocation(std::string format, std::vector<std::string> args) {
  benchmark_invocation inv;
  inv.bench = "planted";
  inv.format = format;
  inv.argv = {child};
  inv.argv.insert(inv.argv.end(), args.begin(), args.end());
  inv.hardware_counters = false;
  return inv;
}

TEST(run_benchmark, json_output_becomes_an_ok_sample) {
  const auto s = run_benchmark(invocation(
      "json",
      {"print", R"({"metrics": {"total_s": 0.25, "work_count": 1000}, "checks": {"verified": true, "digest": "ab"}, "backend": "cpu"})"}));
  ASSERT_EQ(s.status, sample_status::ok) << s.error;
  EXPECT_TRUE(s.error.empty());
  EXPECT_EQ(s.exit_code, 0);
  EXPECT_DOUBLE_EQ(s.metrics.at("planted.total_s"), 0.25);
  EXPECT_DOUBLE_EQ(s.metrics.at("planted.work_count"), 1000);
  EXPECT_EQ(s.checks.at("verified"), "true");
  EXPECT_EQ(s.checks.at("digest"), "ab");
  EXPECT_EQ(s.backend, "cpu");
  for (const char* m : {"wall_s", "user_s", "sys_s", "maxrss_mib", "minflt", "majflt", "nvcsw", "nivcsw"})
    EXPECT_TRUE(s.metrics.contains(std::string("planted.") + m)) << m;
  EXPECT_GT(s.metrics.at("planted.maxrss_mib"), 0.0);
  EXPECT_GT(s.duration_s, 0.0);
  EXPECT_GT(std::chrono::duration<double>(s.started_at.time_since_epoch()).count(), 1.6e9);
  EXPECT_EQ(s.context.at("abtest_process").at("stdout_truncated"), false);
}

TEST(run_benchmark, lines_output_reads_stderr_too) {
  auto inv = invocation("lines", {"eprint", "TIMING: ntt 690 ms\n"});
  inv.options = {{"pattern", R"(TIMING: (\w+) ([0-9.]+) (ms))"}};
  const auto s = run_benchmark(inv);
  ASSERT_EQ(s.status, sample_status::ok) << s.error;
  EXPECT_DOUBLE_EQ(s.metrics.at("planted.ntt_s"), 0.69);
}

TEST(run_benchmark, out_is_a_fresh_path_per_sample_read_then_removed) {
  auto inv = invocation("json", {});
  inv.argv = {"/bin/sh", "-c", R"(test ! -e "$0" && printf '{"metrics": {"total_s": 0.5}}' > "$0")", "{out}"};
  const auto s = run_benchmark(inv);
  ASSERT_EQ(s.status, sample_status::ok) << s.error;
  EXPECT_DOUBLE_EQ(s.metrics.at("planted.total_s"), 0.5);
  const std::string out = s.context.at("abtest_process").at("argv").at(3);
  EXPECT_EQ(out.find("{out}"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(out)) << out;
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out).parent_path())) << out;
  // A second sample gets another path.
  EXPECT_NE(run_benchmark(inv).context.at("abtest_process").at("argv").at(3), out);
  // A program that writes nothing there: bad_output naming {out}.
  inv.argv = {"/bin/sh", "-c", "true", "{out}"};
  const auto none = run_benchmark(inv);
  EXPECT_EQ(none.status, sample_status::bad_output);
  EXPECT_NE(none.error.find("{out}"), std::string::npos) << none.error;
}

TEST(run_benchmark, a_format_sets_its_env_to_out) {
  // criterion: CRITERION_HOME={out}, a folder the program creates; an unknown format fails the sample.
  auto inv = invocation("criterion", {});
  inv.argv = {"/bin/sh", "-c", R"(mkdir -p "$CRITERION_HOME/x/new" && echo '{"mean": {"point_estimate": 2000}, "slope": null}' > "$CRITERION_HOME/x/new/estimates.json")"};
  const auto s = run_benchmark(inv);
  ASSERT_EQ(s.status, sample_status::ok) << s.error;
  EXPECT_DOUBLE_EQ(s.metrics.at("planted.x_s"), 2e-6);
  EXPECT_EQ(run_benchmark(invocation("csv", {"print", "x"})).status, sample_status::failed);
}

TEST(run_benchmark, an_exit_code_listed_as_ok_measures_and_others_fail) {
  // Some benchmark mains return the number of benchmarks they ran (longfellow-zk's test_main).
  benchmark_invocation inv = invocation("json", {});
  inv.argv = {"/bin/sh", "-c", R"(echo '{"metrics": {"total_s": 0.5}}'; exit 4)"};
  auto s = run_benchmark(inv);
  EXPECT_EQ(s.status, sample_status::failed);
  EXPECT_NE(s.error.find("ok_exit_codes"), std::string::npos) << s.error;
  EXPECT_FALSE(s.metrics.contains("planted.total_s"));
  inv.ok_exit_codes = {0, 4};
  s = run_benchmark(inv);
  ASSERT_EQ(s.status, sample_status::ok) << s.error;
  EXPECT_EQ(s.exit_code, 4);
  EXPECT_DOUBLE_EQ(s.metrics.at("planted.total_s"), 0.5);
}

TEST(run_benchmark, exit_zero_without_metrics_is_no_metrics) {
  const auto s = run_benchmark(invocation("json", {"print", R"({"checks": {"verified": true}})"}));
  EXPECT_EQ(s.status, sample_status::no_metrics);
  EXPECT_FALSE(s.error.empty());
  EXPECT_TRUE(s.metrics.contains("planted.wall_s"));  // process metrics are still recorded
}

TEST(run_benchmark, garbage_is_bad_output) {
  const auto s = run_benchmark(invocation("gbench", {"print", "Running BM_x ... 12 ns"}));
  EXPECT_EQ(s.status, sample_status::bad_output);
  EXPECT_NE(s.error.find("--benchmark_format=json"), std::string::npos) << s.error;
}

TEST(run_benchmark, truncated_output_says_so) {
  auto inv = invocation("json", {"spew", "2"});
  inv.stdout_limit = 4096;
  const auto s = run_benchmark(inv);
  EXPECT_EQ(s.status, sample_status::bad_output);
  EXPECT_NE(s.error.find("stdout was cut"), std::string::npos) << s.error;
  EXPECT_EQ(s.context.at("abtest_process").at("stdout_truncated"), true);
}

TEST(run_benchmark, nonzero_exit_is_failed_even_with_metrics) {
  const auto s = run_benchmark(invocation("json", {"exit", "4"}));
  EXPECT_EQ(s.status, sample_status::failed);
  EXPECT_EQ(s.exit_code, 4);
  EXPECT_NE(s.error.find("exited with code 4"), std::string::npos) << s.error;
}

TEST(run_benchmark, signal_is_crashed) {
  const auto s = run_benchmark(invocation("json", {"crash"}));
  EXPECT_EQ(s.status, sample_status::crashed);
  EXPECT_EQ(s.signal, SIGSEGV);
  EXPECT_NE(s.error.find("SIGSEGV"), std::string::npos) << s.error;
}

TEST(run_benchmark, timeout_wins_over_the_killing_signal) {
  auto inv = invocation("json", {"sleep", "30"});
  inv.timeout_s = 0.2;
  const auto s = run_benchmark(inv);
  EXPECT_EQ(s.status, sample_status::timeout);
  EXPECT_NE(s.error.find("timeout"), std::string::npos) << s.error;
  EXPECT_LT(s.duration_s, 10.0);
}

TEST(run_benchmark, unstartable_is_failed) {
  benchmark_invocation inv;
  inv.bench = "x";
  inv.argv = {"/nonexistent/bench"};
  const auto s = run_benchmark(inv);
  EXPECT_EQ(s.status, sample_status::failed);
  EXPECT_FALSE(s.exit_code.has_value());
  EXPECT_NE(s.error.find("/nonexistent/bench"), std::string::npos) << s.error;
  EXPECT_TRUE(s.metrics.empty());
}

}  // namespace
}  // namespace abtest::exec
