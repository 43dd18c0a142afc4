// Tests of format `libtest` on rustc 1.63's own #[bench] output (tests/fixtures/formats/libtest/make.sh).
#include <gtest/gtest.h>

#include "harness/exec/format.hpp"
#include "tests/harness/exec/formats/fixture.hpp"

namespace abtest::exec {
namespace {

TEST(libtest_format, ns_per_iter_with_thousands_separators) {
  // libtest.txt: `test sum_100000 ... bench:      76,568.64 ns/iter (+/- 55,382.00)`.
  const auto p = parse_text("libtest", "b", test::fixture("libtest/libtest.txt"));
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  ASSERT_EQ(p.metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.sum_1000_s"), 751.44e-9);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.sum_100000_s"), 76568.64e-9);
}

TEST(libtest_format, criterion_bencher_lines_and_throughput) {
  const auto p = parse_text("libtest", "b", test::fixture("criterion/bencher.txt"));
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_TRUE(p.metrics.contains("b.sums_a_long_benchmark_name_that_wraps_4000_s"));
  const auto t = parse_text("libtest", "b", "test copy ... bench:       1,234 ns/iter (+/- 56) = 8,300 MB/s\n");
  ASSERT_EQ(t.status, sample_status::ok) << t.error;
  EXPECT_DOUBLE_EQ(t.metrics.at("b.copy_s"), 1234e-9);
  EXPECT_DOUBLE_EQ(t.metrics.at("b.copy_mb_per_s"), 8300);
}

TEST(libtest_format, bad_numbers_collisions_and_nothing) {
  EXPECT_EQ(parse_text("libtest", "b", "test x ... bench:   1,2x4 ns/iter (+/- 5)\n").status, sample_status::bad_output);
  const auto c = parse_text("libtest", "b", "test a/b ... bench: 1 ns/iter (+/- 0)\ntest a_b ... bench: 2 ns/iter (+/- 0)\n");
  EXPECT_EQ(c.status, sample_status::bad_output);
  EXPECT_NE(c.error.find("rename"), std::string::npos) << c.error;
  EXPECT_EQ(parse_text("libtest", "b", "running 2 tests\ntest x ... ok\n").status, sample_status::no_metrics);
}

}  // namespace
}  // namespace abtest::exec
