// Builds tests/fixtures/planted in its variants and checks, through the executor, that each
// toggle plants exactly its documented effect (exact on work_count, never on time).
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "harness/exec/executor.hpp"
#include "harness/exec/process.hpp"

namespace abtest::exec {
namespace {
namespace fs = std::filesystem;

const fs::path source_dir = ABTEST_PLANTED_SOURCE_DIR;
const fs::path build_root = ABTEST_PLANTED_BUILD_DIR;
constexpr std::uint64_t units = 80'000;  // the fixture's default base work per repetition

const char* const toggle_options[] = {"PLANTED_SLOW",   "PLANTED_NULL",  "PLANTED_PAIR1", "PLANTED_PAIR2",
                                      "PLANTED_BROKEN", "PLANTED_CRASH", "PLANTED_DIGEST", "PLANTED_LAYOUT"};

// Configures `folder` with every toggle set explicitly (the named ones ON, SIZE as given) and
// builds `targets`; returns the build's process result (configure failures fail the test).
process_result build(const std::string& folder, std::map<std::string, std::string> on,
                     const std::vector<std::string>& targets = {"planted-bench"}) {
  process_options configure;
  configure.hardware_counters = false;
  configure.argv = {ABTEST_CMAKE_COMMAND, "-S", source_dir.string(), "-B", (build_root / folder).string(),
                    "-G", ABTEST_CMAKE_GENERATOR, "-DCMAKE_BUILD_TYPE=Release",
                    "-DCMAKE_CXX_COMPILER=" ABTEST_CXX_COMPILER};
  for (const char* option : toggle_options) {
    const bool is_on = on.erase(option) > 0;
    configure.argv.push_back(fmt::format("-D{}={}", option, is_on ? "ON" : "OFF"));
  }
  configure.argv.push_back("-DPLANTED_SIZE=" + (on.contains("PLANTED_SIZE") ? on["PLANTED_SIZE"] : "1"));
  if (const std::string launcher = ABTEST_CXX_COMPILER_LAUNCHER; !launcher.empty())
    configure.argv.push_back("-DCMAKE_CXX_COMPILER_LAUNCHER=" + launcher);
  const process_result c = run_process(configure);
  EXPECT_EQ(c.exit_code, 0) << c.error << c.out.tail << c.err.tail;

  process_options b;
  b.hardware_counters = false;
  b.argv = {ABTEST_CMAKE_COMMAND, "--build", (build_root / folder).string(), "-j2", "--target"};
  b.argv.insert(b.argv.end(), targets.begin(), targets.end());
  return run_process(b);
}

sample run(const std::string& folder, const std::string& format = "json") {
  benchmark_invocation inv;
  inv.hardware_counters = false;
  inv.timeout_s = 60;
  const std::string bin = (build_root / folder).string();
  if (format == "json") {
    inv.bench = "planted";
    inv.argv = {bin + "/planted-bench", "--reps", "1", "--units", std::to_string(units)};
  } else if (format == "gbench") {
    inv.bench = "planted_gbench";
    inv.argv = {bin + "/planted-gbench", "--benchmark_format=json", "--benchmark_repetitions=2",
                fmt::format("--units={}", units)};
  } else if (format == "lines") {
    inv.bench = "planted_lines";
    inv.options = {{"pattern", R"(PLANTED_(?:TIMING|COUNT): (\w+) ([0-9.]+) ?(ms)?)"}};
    inv.argv = {bin + "/planted-bench", "--reps", "1", "--units", std::to_string(units), "--format", "lines"};
  } else {  // process: the same program, its output not read
    inv.bench = "planted_process";
    inv.argv = {bin + "/planted-bench", "--reps", "1", "--units", std::to_string(units)};
  }
  inv.format = format;
  return run_benchmark(inv);
}

double work_count(const std::string& folder) {
  const sample s = run(folder);
  EXPECT_EQ(s.status, sample_status::ok) << s.error;
  return s.metrics.contains("planted.work_count") ? s.metrics.at("planted.work_count") : -1;
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(planted_fixture, base_reports_exact_work_in_every_format) {
  ASSERT_EQ(build("work", {}, {"planted-bench", "planted-gbench"}).exit_code, 0);
  const sample json = run("work");
  ASSERT_EQ(json.status, sample_status::ok) << json.error;
  EXPECT_EQ(json.metrics.at("planted.work_count"), units);
  EXPECT_GT(json.metrics.at("planted.total_s"), 0.0);
  EXPECT_EQ(json.checks.at("verified"), "true");
  EXPECT_TRUE(std::regex_match(json.checks.at("digest"), std::regex("[0-9a-f]{16}"))) << json.checks.at("digest");
  EXPECT_EQ(json.backend, "cpu");

  const sample gbench = run("work", "gbench");
  ASSERT_EQ(gbench.status, sample_status::ok) << gbench.error;
  EXPECT_GT(gbench.metrics.at("planted_gbench.BM_planted_s"), 0.0);
  EXPECT_EQ(gbench.metrics.at("planted_gbench.BM_planted_work_count"), units);
  EXPECT_EQ(gbench.checks.at("digest"), json.checks.at("digest"));
  EXPECT_EQ(gbench.checks.at("verified"), "true");
  EXPECT_EQ(gbench.backend, "cpu");

  const sample lines = run("work", "lines");
  ASSERT_EQ(lines.status, sample_status::ok) << lines.error;
  EXPECT_EQ(lines.metrics.at("planted_lines.work_count"), units);
  EXPECT_GT(lines.metrics.at("planted_lines.total_s"), 0.0);

  // `process`: nothing read from the output, so only the process's own metrics, and still ok.
  const sample process = run("work", "process");
  ASSERT_EQ(process.status, sample_status::ok) << process.error;
  EXPECT_GT(process.metrics.at("planted_process.wall_s"), 0.0);
  EXPECT_GT(process.metrics.at("planted_process.maxrss_mib"), 0.0);
  EXPECT_EQ(process.metrics.count("planted_process.work_count"), 0u) << "the JSON it printed was not read";
  EXPECT_TRUE(process.checks.empty());
}

TEST(planted_fixture, null_builds_byte_identical_binaries_in_another_folder) {
  const std::vector<std::string> both = {"planted-bench", "planted-gbench"};
  ASSERT_EQ(build("work", {}, both).exit_code, 0);
  ASSERT_EQ(build("null", {{"PLANTED_NULL", "ON"}}, both).exit_code, 0);
  for (const char* binary : {"planted-bench", "planted-gbench"}) {
    const std::string base = file_bytes(build_root / "work" / binary);
    ASSERT_FALSE(base.empty()) << binary;
    EXPECT_TRUE(base == file_bytes(build_root / "null" / binary)) << binary << " differs between base and NULL";
  }
}

TEST(planted_fixture, layout_moves_code_and_changes_nothing_that_runs) {
  ASSERT_EQ(build("work", {}).exit_code, 0);
  const std::string base = file_bytes(build_root / "work" / "planted-bench");
  const auto base_checks = run("work").checks;
  ASSERT_EQ(build("layout", {{"PLANTED_LAYOUT", "ON"}}).exit_code, 0);
  EXPECT_FALSE(base == file_bytes(build_root / "layout" / "planted-bench")) << "LAYOUT must change the binary";
  EXPECT_EQ(work_count("layout"), units);
  EXPECT_EQ(run("layout").checks, base_checks) << "LAYOUT must not change what the program computes";
}

TEST(planted_fixture, slow_adds_exactly_30_percent_work_and_keeps_the_digest) {
  ASSERT_EQ(build("work", {}).exit_code, 0);
  const std::string base_digest = run("work").checks.at("digest");
  ASSERT_EQ(build("work", {{"PLANTED_SLOW", "ON"}}).exit_code, 0);
  EXPECT_EQ(work_count("work"), units * 13 / 10);
  EXPECT_EQ(run("work").checks.at("digest"), base_digest);
}

TEST(planted_fixture, pair_adds_40_percent_only_when_both_are_on) {
  ASSERT_EQ(build("work", {{"PLANTED_PAIR1", "ON"}}).exit_code, 0);
  EXPECT_EQ(work_count("work"), units);
  ASSERT_EQ(build("work", {{"PLANTED_PAIR2", "ON"}}).exit_code, 0);
  EXPECT_EQ(work_count("work"), units);
  ASSERT_EQ(build("work", {{"PLANTED_PAIR1", "ON"}, {"PLANTED_PAIR2", "ON"}}).exit_code, 0);
  EXPECT_EQ(work_count("work"), units * 14 / 10);
  ASSERT_EQ(build("work", {{"PLANTED_PAIR1", "ON"}, {"PLANTED_PAIR2", "ON"}, {"PLANTED_SLOW", "ON"}}).exit_code, 0);
  EXPECT_EQ(work_count("work"), units * 182 / 100);  // effects multiply: 1.3 × 1.4
}

TEST(planted_fixture, size_levels_multiply_work) {
  ASSERT_EQ(build("work", {{"PLANTED_SIZE", "4"}}).exit_code, 0);
  EXPECT_EQ(work_count("work"), units * 4);
  ASSERT_EQ(build("work", {{"PLANTED_SIZE", "2"}, {"PLANTED_SLOW", "ON"}}).exit_code, 0);
  EXPECT_EQ(work_count("work"), units * 26 / 10);
}

TEST(planted_fixture, digest_changes_the_digest_not_the_work) {
  ASSERT_EQ(build("work", {}).exit_code, 0);
  const std::string base_digest = run("work").checks.at("digest");
  ASSERT_EQ(build("work", {{"PLANTED_DIGEST", "ON"}}).exit_code, 0);
  const sample s = run("work");
  ASSERT_EQ(s.status, sample_status::ok) << s.error;
  EXPECT_EQ(s.metrics.at("planted.work_count"), units);
  EXPECT_NE(s.checks.at("digest"), base_digest);
}

TEST(planted_fixture, crash_dies_by_sigsegv) {
  ASSERT_EQ(build("work", {{"PLANTED_CRASH", "ON"}}).exit_code, 0);
  const sample s = run("work");
  EXPECT_EQ(s.status, sample_status::crashed);
  EXPECT_EQ(s.signal, SIGSEGV);
}

TEST(planted_fixture, broken_fails_to_build_with_a_clear_message) {
  const process_result b = build("work", {{"PLANTED_BROKEN", "ON"}});
  EXPECT_NE(b.exit_code, 0);
  EXPECT_NE((b.out.head + b.err.head).find("PLANTED_BROKEN is ON"), std::string::npos) << b.out.tail;
}

TEST(planted_fixture, unknown_size_level_fails_to_configure) {
  process_options o;
  o.hardware_counters = false;
  o.argv = {ABTEST_CMAKE_COMMAND, "-S", source_dir.string(), "-B", (build_root / "bad_size").string(),
            "-G", ABTEST_CMAKE_GENERATOR, "-DPLANTED_SIZE=3"};
  const process_result c = run_process(o);
  EXPECT_NE(c.exit_code, 0);
  EXPECT_NE((c.out.head + c.err.head).find("PLANTED_SIZE must be 1, 2 or 4"), std::string::npos);
}

}  // namespace
}  // namespace abtest::exec
