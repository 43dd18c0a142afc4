// Tests of commit bisection: every position of the first bad commit, skips, and ambiguity.
#include "harness/search/commit_bisect.hpp"

#include <gtest/gtest.h>

#include <set>

namespace abtest::search {
namespace {

TEST(commit_bisect, finds_every_position_in_log2_steps) {
  for (std::size_t first_bad = 1; first_bad < 16; ++first_bad) {
    const auto r = bisect_commits(16, [&](std::size_t c) { return c >= first_bad ? commit_state::bad : commit_state::good; });
    ASSERT_TRUE(r.found) << first_bad;
    EXPECT_EQ(r.first_bad, first_bad);
    EXPECT_LE(r.tested.size(), 4u);  // ⌈log2 15⌉
    EXPECT_EQ(std::set<std::size_t>(r.tested.begin(), r.tested.end()).size(), r.tested.size());
  }
}

TEST(commit_bisect, steps_around_skipped_commits) {
  const std::set<std::size_t> unbuildable{7, 8};
  const auto r = bisect_commits(16, [&](std::size_t c) {
    if (unbuildable.contains(c)) return commit_state::skip;
    return c >= 11 ? commit_state::bad : commit_state::good;
  });
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.first_bad, 11u);
}

TEST(commit_bisect, a_skipped_culprit_leaves_candidates) {
  // The first bad commit (9) cannot be built, nor can 8: the answer is "one of 8, 9, 10".
  const auto r = bisect_commits(16, [](std::size_t c) {
    if (c == 8 || c == 9) return commit_state::skip;
    return c >= 9 ? commit_state::bad : commit_state::good;
  });
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.candidates, (std::vector<std::size_t>{8, 9, 10}));
}

TEST(commit_bisect, adjacent_bounds_need_no_test) {
  const auto r = bisect_commits(2, [](std::size_t) -> commit_state { throw std::logic_error("must not test"); });
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.first_bad, 1u);
  EXPECT_THROW(bisect_commits(1, [](std::size_t) { return commit_state::good; }), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::search
