// Tests of the designs: sizes, generators, resolution and the orthogonality it promises.
#include "harness/search/design.hpp"

#include <gtest/gtest.h>

#include <set>

namespace abtest::search {
namespace {

// ±1 columns of all main effects and two-factor interactions.
std::vector<std::vector<int>> columns(const design& d) {
  std::vector<std::vector<int>> cols;
  for (int i = 0; i < d.k; ++i) {
    std::vector<int> c;
    for (const auto& run : d.runs) c.push_back(2 * run[i] - 1);
    cols.push_back(c);
  }
  for (int i = 0; i < d.k; ++i) {
    for (int j = i + 1; j < d.k; ++j) {
      std::vector<int> c;
      for (const auto& run : d.runs) c.push_back((2 * run[i] - 1) * (2 * run[j] - 1));
      cols.push_back(c);
    }
  }
  return cols;
}

TEST(design, full_factorial_in_yates_order) {
  const design d = full_factorial(3);
  ASSERT_EQ(d.runs.size(), 8u);
  EXPECT_EQ(d.runs[1], (std::vector<int>{1, 0, 0}));
  EXPECT_EQ(d.runs[6], (std::vector<int>{0, 1, 1}));
  EXPECT_EQ(std::set<std::vector<int>>(d.runs.begin(), d.runs.end()).size(), 8u);
  EXPECT_EQ(d.resolution(), 0);
}

TEST(design, half_fraction_of_five_is_e_equals_abcd) {
  const design d = fractional_factorial(5);
  ASSERT_EQ(d.runs.size(), 16u);
  EXPECT_EQ(d.generators, std::vector<std::string>{"E=ABCD"});
  for (const auto& run : d.runs) {
    int product = 1;
    for (int j = 0; j < 4; ++j) product *= 2 * run[j] - 1;
    EXPECT_EQ(2 * run[4] - 1, product);
  }
  EXPECT_EQ(d.resolution(), 5);
  // All on is in the fraction, all off is not (E = ABCD = +1 there).
  EXPECT_NE(std::find(d.runs.begin(), d.runs.end(), std::vector<int>(5, 1)), d.runs.end());
}

TEST(design, resolution_v_fractions_keep_mains_and_pairs_orthogonal) {
  for (int k = 2; k <= 8; ++k) {
    SCOPED_TRACE(k);
    const design d = fractional_factorial(k);
    EXPECT_TRUE(d.resolution() == 0 || d.resolution() >= 5);
    const auto cols = columns(d);
    for (std::size_t a = 0; a < cols.size(); ++a) {
      for (std::size_t b = a + 1; b < cols.size(); ++b) {
        int dot = 0;
        for (std::size_t r = 0; r < cols[a].size(); ++r) dot += cols[a][r] * cols[b][r];
        EXPECT_EQ(dot, 0) << "terms " << a << " and " << b;
      }
    }
  }
  EXPECT_EQ(fractional_factorial(6).runs.size(), 32u);
  EXPECT_EQ(fractional_factorial(7).runs.size(), 64u);
  EXPECT_EQ(fractional_factorial(8).runs.size(), 64u);
  EXPECT_EQ(fractional_factorial(8).resolution(), 5);
  EXPECT_EQ(fractional_factorial(4).kind, "full");
  EXPECT_THROW(fractional_factorial(9), std::invalid_argument);
}

TEST(design, one_at_a_time) {
  const design d = one_at_a_time(3);
  ASSERT_EQ(d.runs.size(), 5u);
  EXPECT_EQ(d.runs.front(), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(d.runs[2], (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(d.runs.back(), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(one_at_a_time(1).runs.size(), 2u);
  EXPECT_EQ(make_design("oat", 4).runs.size(), 6u);
  EXPECT_EQ(make_design("half", 5).runs.size(), 16u);
  EXPECT_THROW(make_design("quarter", 5), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::search
