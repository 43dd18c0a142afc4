// Tests of the --pin CPU list parser.
#include "harness/exec/cpu_list.hpp"

#include <gtest/gtest.h>

namespace abtest::exec {
namespace {

TEST(cpu_list, indices_and_ranges) {
  const auto r = parse_cpu_list("0,2-3, 8");
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.cpus, (std::vector<int>{0, 2, 3, 8}));
}

TEST(cpu_list, duplicates_and_order_are_normalised) {
  EXPECT_EQ(parse_cpu_list("3,1-2,2,1").cpus, (std::vector<int>{1, 2, 3}));
}

TEST(cpu_list, malformed_lists_are_errors) {
  for (const char* bad : {"", " ", "a", "1-", "-1", "3-1", "1,,2", "1;2", "0-2000", "1.5", "2-3-4"}) {
    const auto r = parse_cpu_list(bad);
    EXPECT_FALSE(r.error.empty()) << "'" << bad << "'";
    EXPECT_TRUE(r.cpus.empty()) << "'" << bad << "'";
    EXPECT_NE(r.error.find(" — "), std::string::npos) << r.error;
  }
}

}  // namespace
}  // namespace abtest::exec
