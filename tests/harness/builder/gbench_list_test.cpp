// gbench_list: `--benchmark_list_tests` output into names and families, and a family's filter.
#include "harness/builder/gbench_list.hpp"

#include <gtest/gtest.h>

#include <regex>

namespace abtest {
namespace {

TEST(gbench_list, names_and_families_in_order) {
  const auto l = parse_benchmark_list("adler32/c/1\nadler32/c/64\ncrc32/avx2/1\r\n\nBM_copy\nadler32/avx2/1\n");
  ASSERT_EQ(l.names.size(), 5u);
  EXPECT_EQ(l.names[2], "crc32/avx2/1");
  ASSERT_EQ(l.families.size(), 3u);
  EXPECT_EQ(l.families[0].name, "adler32");
  EXPECT_EQ(l.families[0].count, 3u);
  EXPECT_EQ(l.families[1].name, "crc32");
  EXPECT_EQ(l.families[2].name, "BM_copy");
  EXPECT_TRUE(parse_benchmark_list("").names.empty());
}

TEST(gbench_list, a_banner_the_program_prints_is_not_a_benchmark) {
  // tarantool/small's small.perftest prints a box of prose before its list.
  const auto l = parse_benchmark_list("********************\n* This benchmark checks performance *\n"
                                      "small_workload_benchmark/0\nsmall_workload_benchmark/1\n  indented line\n");
  EXPECT_EQ(l.names, (std::vector<std::string>{"small_workload_benchmark/0", "small_workload_benchmark/1"}));
  ASSERT_EQ(l.families.size(), 1u);
  EXPECT_EQ(l.families[0].count, 2u);
}

TEST(gbench_list, a_family_filter_selects_exactly_that_family) {
  const std::regex f(family_filter("adler32"));
  EXPECT_TRUE(std::regex_search("adler32/c/1", f));
  EXPECT_TRUE(std::regex_search("adler32", f));
  EXPECT_FALSE(std::regex_search("adler32_copy/c/1", f));
  EXPECT_FALSE(std::regex_search("x_adler32/c/1", f));
  EXPECT_EQ(family_filter("a.b+"), "^a\\.b\\+(/|$)");
}

}  // namespace
}  // namespace abtest
