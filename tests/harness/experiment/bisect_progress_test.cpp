// bisect_progress: the step line's wording, the expected number of steps, and the culprits found so
// far as a search's comparisons come in through the oracle's listener.
#include "harness/experiment/bisect_progress.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace abtest {
namespace {

TEST(bisect_progress, a_step_line_says_where_the_search_is) {
  bisect_step_line l;
  l.step = 3;
  l.expected = 7;
  l.tested = {"CACHE", "INLINE"};
  l.against = "base";
  l.culprits = {"LIT", "DFA"};
  l.left_s = 120;
  EXPECT_EQ(format_step_line(l), "step 3/≈7 · testing {CACHE, INLINE} vs base · culprits so far: LIT, DFA · ≈2m00s left");
  l.culprits.clear();
  l.left_s.reset();
  l.expected = 2;  // never "step 3/≈2"
  EXPECT_EQ(format_step_line(l), "step 3/≈3 · testing {CACHE, INLINE} vs base · culprits so far: none · time left not known yet");
  l.tested = {"T01", "T02", "T03", "T04", "T05", "T06", "T07"};
  l.against = "T01+T02+T03+T04+T05+T06+T07+T08+T09+T10+T11+T12";
  EXPECT_EQ(format_step_line(l).rfind("step 3/≈3 · testing {T01, T02, T03, …, T07 (7)} vs T01+T02+T03+T04+T05+T06+T07+T08+T09+T10+… · ", 0),
            0u) << format_step_line(l);
  l.matrix_configs = 16;
  EXPECT_EQ(format_step_line(l).rfind("step 3/≈3 · factorial matrix of 16 configurations · culprits so far: none", 0), 0u)
      << format_step_line(l);
}

TEST(bisect_progress, expected_steps_follow_the_search) {
  EXPECT_EQ(expected_bisect_steps(4, 0, search_shape::factorial), 4);    // overall, matrix, two confirmations of one culprit
  EXPECT_EQ(expected_bisect_steps(4, 2, search_shape::factorial), 6);
  EXPECT_EQ(expected_bisect_steps(16, 1, search_shape::group), 11);  // overall, 2·4 group comparisons, 2 confirmations
  EXPECT_EQ(expected_bisect_steps(16, 2, search_shape::group), 21);
}

TEST(bisect_progress, lines_count_steps_and_name_culprits_as_they_are_found) {
  std::vector<std::string> lines;
  experiment_context ctx;
  ctx.on_progress = [&](const progress& p) { lines.push_back(p.text); };
  std::vector<search::toggle_spec> specs(4);
  specs[0].id = "CACHE";
  specs[1].id = "DFA";
  specs[2].id = "INLINE";
  specs[3].id = "LIT";
  bisect_progress p(ctx, specs, 4, search_shape::factorial);
  auto l = p.listener();
  const search::levels base, all{{"CACHE", "ON"}, {"DFA", "ON"}, {"INLINE", "ON"}, {"LIT", "ON"}};
  const auto answer = [&](stats::verdict v) {
    oracle_step s;
    s.result.verdict = v;
    l.recorded(s);
  };
  l.comparing(base, all);  // the overall A/B
  answer(stats::verdict::slower);
  l.matrix(16, 6);
  answer(stats::verdict::inconclusive);
  l.comparing(base, {{"LIT", "ON"}});  // from + LIT vs from: a confirmation, slower
  answer(stats::verdict::slower);
  l.comparing(all, {{"CACHE", "ON"}, {"DFA", "ON"}, {"INLINE", "ON"}});  // to − LIT vs to: faster, the other confirmation
  answer(stats::verdict::faster);
  l.comparing(base, {{"CACHE", "ON"}, {"INLINE", "ON"}});  // two toggles: not a culprit by itself
  answer(stats::verdict::slower);
  l.comparing(base, {{"INLINE", "ON"}});  // SAME: not a culprit
  answer(stats::verdict::same);
  l.comparing({{"CACHE", "ON"}}, {});  // CACHE turned off, faster: a culprit, named as turned on
  answer(stats::verdict::faster);
  l.comparing({{"DFA", "OFF"}}, {{"CACHE", "ON"}, {"DFA", "OFF"}});  // found again, off levels spelled out: named once
  answer(stats::verdict::slower);
  l.comparing(base, base);
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(lines[0].rfind("step 1/≈4 · testing {CACHE, DFA, INLINE, LIT} vs base · culprits so far: none · time left not known yet", 0),
            0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("step 2/≈4 · factorial matrix of 16 configurations · culprits so far: none · ≈", 0), 0u) << lines[1];
  EXPECT_EQ(lines[3].rfind("step 4/≈4 · testing {-LIT} vs CACHE+DFA+INLINE+LIT · culprits so far: LIT · ", 0), 0u) << lines[3];
  EXPECT_EQ(lines[4].rfind("step 5/≈5 · testing {CACHE, INLINE} vs base · culprits so far: LIT · ", 0), 0u) << lines[4];
  EXPECT_NE(lines[5].find("culprits so far: LIT ·"), std::string::npos) << lines[5];
  EXPECT_NE(lines[6].find("testing {-CACHE} vs CACHE · culprits so far: LIT ·"), std::string::npos) << lines[6];
  EXPECT_NE(lines[7].find("testing {CACHE} vs base ·"), std::string::npos) << lines[7];
  EXPECT_NE(lines[8].find("culprits so far: LIT, CACHE ·"), std::string::npos) << lines[8];
}

// A matrix that is not decided after its first rounds adds more (search::matrix_decided): they are
// the same step, said as such, not a new step each; after a comparison a matrix is a new step again.
TEST(bisect_progress, rounds_a_matrix_adds_are_its_own_step) {
  std::vector<std::string> lines;
  experiment_context ctx;
  ctx.on_progress = [&](const progress& p) { lines.push_back(p.text); };
  std::vector<search::toggle_spec> specs(2);
  specs[0].id = "A";
  specs[1].id = "B";
  bisect_progress p(ctx, specs, 2, search_shape::factorial);
  auto l = p.listener();
  l.comparing({}, {{"A", "ON"}, {"B", "ON"}});
  l.matrix(4, 3);
  l.matrix(4, 3);
  l.matrix(4, 6);
  l.comparing({}, {{"A", "ON"}});
  l.matrix(4, 3);  // a pair's four cells: a step of its own
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[1].rfind("step 2/", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2], "  undecided after 3 rounds: 3 more");
  EXPECT_EQ(lines[3], "  undecided after 6 rounds: 6 more");
  EXPECT_EQ(lines[4].rfind("step 3/", 0), 0u) << lines[4];
  EXPECT_EQ(lines[5].rfind("step 4/", 0), 0u) << lines[5];
}

// Once the search prices what it has left at its configurations' measured seconds, the
// lines say the worst case ("≤ N min left") and name the terms it decided as soon as it decides them.
TEST(bisect_progress, the_search_s_worst_case_and_decided_terms_are_shown) {
  bisect_step_line l;
  l.step = 2;
  l.expected = 4;
  l.matrix_configs = 16;
  l.left_s = 601;
  l.worst_case = true;
  EXPECT_EQ(format_step_line(l), "step 2/≈4 · factorial matrix of 16 configurations · culprits so far: none · ≤ 11 min left");
  l.left_s = 5;
  EXPECT_EQ(left_text(l), "≤ 1 min left");

  std::vector<std::string> lines;
  experiment_context ctx;
  ctx.on_progress = [&](const progress& p) { lines.push_back(p.text); };
  std::vector<search::toggle_spec> specs(2);
  specs[0].id = "DFA";
  specs[1].id = "LIT";
  bisect_progress p(ctx, specs, 2, search_shape::factorial);
  auto listener = p.listener();
  listener.comparing({}, {{"DFA", "ON"}, {"LIT", "ON"}});
  listener.progress({{}, 900.0});
  listener.matrix(4, 3);
  listener.progress({{"DFA 19.30×"}, 120.0});
  listener.matrix(4, 3);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].find("time left not known yet") != std::string::npos, true) << lines[0];
  EXPECT_NE(lines[1].find("culprits so far: none · ≤ 15 min left"), std::string::npos) << lines[1];
  EXPECT_EQ(lines[2], "  undecided after 3 rounds: 3 more · decided: DFA 19.30× · ≤ 2 min left");
}

}  // namespace
}  // namespace abtest
