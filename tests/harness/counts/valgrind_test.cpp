// Real Valgrind runs of the fixture program: counts are deterministic, a doubled loop shows up as
// the top function of the diff, N more heap blocks as exactly N more alloc_blocks. Skipped (not
// passed) without Valgrind.
#include "harness/counts/valgrind.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <vector>

#include "harness/counts/mechanism.hpp"
#include "harness/counts/mechanism_format.hpp"

namespace abtest::counts {
namespace {

constexpr unsigned long loop = 200'000;
constexpr unsigned long blocks = 500;
constexpr count block_bytes = 48;  // sizeof(counts_fixture::node)

// The skip reason when Valgrind cannot be run here; empty when it can.
std::string no_valgrind() {
  std::string error;
  return valgrind_version("valgrind", error) ? std::string() : error;
}

count_set measure(unsigned long loop_length, unsigned long block_count, const std::string& region = "") {
  counts_options o;
  o.argv = {ABTEST_COUNTS_TEST_CHILD, std::to_string(loop_length), std::to_string(block_count)};
  o.region = region;
  o.allocations = region.empty();
  o.timeout_s = 240;
  const counts_result r = run_counts(o);
  EXPECT_TRUE(r.counts.has_value()) << r.error;
  EXPECT_EQ(r.program_stdout.size(), 34u) << "two 16-digit hex numbers: " << r.program_stdout;
  return r.counts.value_or(count_set{});
}

// The fixture's loop function, found by its demangled name (with or without a parameter list).
const function_counts* spin(const count_set& c) {
  for (const auto& [name, f] : c.functions)
    if (name.starts_with("counts_fixture::spin_loop")) return &f;
  return nullptr;
}

TEST(run_counts, two_runs_of_one_program_count_the_same) {
  if (const std::string why = no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  const count_set a = measure(loop, blocks), b = measure(loop, blocks);
  ASSERT_TRUE(a.totals.contains("Ir"));
  EXPECT_GT(a.totals.at("Ir"), 5 * loop) << "the loop body alone is several instructions per iteration";
  EXPECT_EQ(a.totals.at("Ir"), b.totals.at("Ir"));
  EXPECT_EQ(a.totals, b.totals) << "every cachegrind and DHAT total, with pinned cache geometry";
  for (const std::string_view name : headline_counts) EXPECT_TRUE(a.totals.contains(std::string(name))) << name;
  EXPECT_EQ(a.cache_config, "I1 cache: 32768 B, 64 B, 8-way associative; D1 cache: 32768 B, 64 B, 8-way "
                            "associative; LL cache: 8388608 B, 64 B, 16-way associative");
  EXPECT_TRUE(a.valgrind_version.starts_with("valgrind-"));
  const mechanism m = diff_counts(a, b);
  EXPECT_TRUE(m.moved.empty()) << format_terminal(m);
  EXPECT_TRUE(m.functions.empty()) << format_terminal(m);
}

TEST(run_counts, doubling_the_loop_and_the_blocks_shows_in_the_mechanism) {
  if (const std::string why = no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  const count_set one = measure(loop, blocks), two = measure(2 * loop, 2 * blocks);
  const function_counts *s1 = spin(one), *s2 = spin(two);
  ASSERT_TRUE(s1 && s2) << "no counts_fixture::spin_loop among " << one.functions.size() << " functions";
  const count ir1 = s1->events.at("Ir"), ir2 = s2->events.at("Ir");
  EXPECT_GE(ir2, 2 * ir1 - ir1 / 20) << "twice the iterations, the same few setup instructions";
  EXPECT_LE(ir2, 2 * ir1 + ir1 / 20);

  const mechanism m = diff_counts(one, two);
  ASSERT_FALSE(m.functions.empty());
  EXPECT_EQ(m.functions[0].name, s1->name) << format_terminal(m);
  EXPECT_EQ(m.functions[0].delta, static_cast<std::int64_t>(ir2 - ir1));
  ASSERT_FALSE(m.moved.empty());
  EXPECT_EQ(m.moved[0].name, "Ir");

  EXPECT_GE(one.totals.at("alloc_blocks"), blocks);
  EXPECT_EQ(two.totals.at("alloc_blocks") - one.totals.at("alloc_blocks"), blocks);
  EXPECT_EQ(two.totals.at("alloc_bytes") - one.totals.at("alloc_bytes"), blocks * block_bytes);
  ASSERT_FALSE(m.alloc_sites.empty());
  EXPECT_EQ(m.alloc_sites[0].delta_blocks, static_cast<std::int64_t>(blocks));
  EXPECT_NE(m.alloc_sites[0].where.find("counts_fixture::allocate_blocks"), std::string::npos) << m.alloc_sites[0].where;
}

TEST(run_counts, a_region_counts_only_inside_its_function) {
  if (const std::string why = no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  // The same loop, twice the heap blocks: outside the region, so its counts do not move.
  const count_set a = measure(loop, blocks, "counts_fixture::spin_loop*");
  const count_set b = measure(loop, 2 * blocks, "counts_fixture::spin_loop*");
  ASSERT_EQ(a.functions.size(), 1u) << "spin_loop calls nothing";
  ASSERT_NE(spin(a), nullptr);
  EXPECT_EQ(a.totals.at("Ir"), spin(a)->events.at("Ir"));
  EXPECT_GT(a.totals.at("Ir"), 2 * loop);
  EXPECT_EQ(a.totals.at("Ir"), b.totals.at("Ir"));
  EXPECT_EQ(a.region, "counts_fixture::spin_loop*");
  EXPECT_FALSE(a.totals.contains("alloc_blocks")) << "no DHAT run asked for";
  EXPECT_EQ(a.cache_config.substr(0, 9), "I1 cache:");
  const mechanism m = diff_counts(a, b);
  EXPECT_TRUE(m.comparable);
  EXPECT_TRUE(m.functions.empty()) << format_terminal(m);
  EXPECT_FALSE(diff_counts(measure(loop, blocks), a).comparable) << "whole program vs region";
}

TEST(run_counts, a_region_where_nothing_ran_is_an_error) {
  if (const std::string why = no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  counts_options o;
  o.argv = {ABTEST_COUNTS_TEST_CHILD, "10", "1"};
  o.region = "no_such_function*";
  o.allocations = false;
  const counts_result r = run_counts(o);
  EXPECT_FALSE(r.counts.has_value());
  EXPECT_NE(r.error.find("no instruction ran inside a function matching 'no_such_function*'"), std::string::npos)
      << r.error;
}

// Two copies of one program in folders whose names differ in length, as variant builds are
// (.abtest/build/base/ and .abtest/build/A1=4+B1/).
TEST(run_counts, the_path_of_the_program_does_not_move_its_counts) {
  if (const std::string why = no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "abtest-counts-paths";
  std::filesystem::remove_all(dir);
  std::vector<std::filesystem::path> copies;
  for (const char* arm : {"base", "a-much-longer-variant-key"}) {
    std::filesystem::create_directories(dir / arm);
    copies.push_back(dir / arm / "counts_test_child");
    std::filesystem::copy_file(ABTEST_COUNTS_TEST_CHILD, copies.back());
  }
  const auto run = [](const std::filesystem::path& program, bool same_argv0) {
    counts_options o;
    o.argv = {program.string(), "1000", "10"};
    o.same_argv0 = same_argv0;
    const counts_result r = run_counts(o);
    EXPECT_TRUE(r.counts.has_value()) << r.error;
    return r.counts.value_or(count_set{});
  };
  const count_set a = run(copies[0], true), b = run(copies[1], true);
  EXPECT_EQ(a.totals, b.totals);
  EXPECT_GT(a.totals.at("alloc_bytes"), 0u);
  const count_set c = run(copies[0], false), d = run(copies[1], false);
  EXPECT_EQ(d.totals.at("alloc_bytes") - c.totals.at("alloc_bytes"), std::string("a-much-longer-variant-key").size() -
                                                                           std::string("base").size())
      << "the fixture keeps a copy of argv[0]; without same_argv0 its length shows";
  std::filesystem::remove_all(dir);
}

TEST(run_counts, a_program_that_fails_under_valgrind_is_an_error_with_its_code_and_stderr) {
  if (const std::string why = no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  counts_options o;
  o.argv = {ABTEST_COUNTS_TEST_CHILD, "fail", "3"};
  const counts_result r = run_counts(o);
  EXPECT_FALSE(r.counts.has_value());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.error.find("counts_test_child exited with code 3 under cachegrind"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("failing on purpose"), std::string::npos) << r.error;
}

TEST(run_counts, a_crash_under_valgrind_names_the_signal_and_shows_valgrinds_report) {
  if (const std::string why = no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "abtest-counts-crash";
  counts_options o;
  o.argv = {ABTEST_COUNTS_TEST_CHILD, "crash"};
  o.scratch_dir = dir;
  const counts_result r = run_counts(o);
  EXPECT_FALSE(r.counts.has_value());
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_NE(r.error.find("killed by signal 11"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("Process terminating with default action of signal 11"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("Valgrind's whole log: " + (dir / "cachegrind.log").string()), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find("cache found"), std::string::npos) << "host cache detection is noise here: " << r.error;
  std::filesystem::remove_all(dir);
}

TEST(run_counts, missing_valgrind_says_how_to_install_it) {
  counts_options o;
  o.argv = {ABTEST_COUNTS_TEST_CHILD, "1", "1"};
  o.valgrind = "/nonexistent/valgrind";
  const counts_result r = run_counts(o);
  EXPECT_FALSE(r.counts.has_value());
  EXPECT_NE(r.error.find("apt-get install valgrind"), std::string::npos) << r.error;
}

TEST(run_counts, scratch_folder_keeps_the_output_files) {
  if (const std::string why = no_valgrind(); !why.empty()) GTEST_SKIP() << why;
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "abtest-counts-scratch";
  std::filesystem::remove_all(dir);
  counts_options o;
  o.argv = {ABTEST_COUNTS_TEST_CHILD, "1000", "3"};
  o.scratch_dir = dir;
  o.allocations = false;
  const counts_result r = run_counts(o);
  ASSERT_TRUE(r.counts.has_value()) << r.error;
  EXPECT_TRUE(std::filesystem::exists(dir / "cachegrind.out"));
  EXPECT_TRUE(std::filesystem::exists(dir / "cachegrind.log"));
  EXPECT_FALSE(std::filesystem::exists(dir / "dhat.json")) << "allocations = false: no DHAT run";
  EXPECT_FALSE(r.counts->totals.contains("alloc_blocks")) << "not measured is absent, not zero";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace abtest::counts
