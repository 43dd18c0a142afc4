// Tests of format `divan` on its tree output (tests/fixtures/formats/divan/, written by hand: see its README).
#include <gtest/gtest.h>

#include "harness/exec/format.hpp"
#include "tests/harness/exec/formats/fixture.hpp"

namespace abtest::exec {
namespace {

TEST(divan_format, each_bench_is_its_median_named_with_its_parents) {
  const auto p = parse_text("divan", "b", test::fixture("divan/divan.txt"));
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("b.sort_random_sort_s"), 4.894e-3);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.sort_random_sort_unstable_s"), 2.145e-3);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.sort_sorted_sort_s"), 52.27e-6);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.sort_sorted_sort_unstable_s"), 39.04e-6);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.fibonacci_iterative_s"), 1.757e-9);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.fibonacci_recursive_10_s"), 106.2e-9);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.fibonacci_recursive_20_s"), 13.2e-6);
  EXPECT_EQ(p.metrics.size(), 7u);  // groups, alloc counters and throughput rows are not benches
}

TEST(divan_format, no_table_is_no_metrics) {
  EXPECT_EQ(parse_text("divan", "b", "").status, sample_status::no_metrics);
  EXPECT_EQ(parse_text("divan", "b", "Timer precision: 36 ns\n├─ x  1 ns │ 2 ns\n").status, sample_status::no_metrics);
}

}  // namespace
}  // namespace abtest::exec
