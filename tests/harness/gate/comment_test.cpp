// Tests of the pull-request comment: the summary line, the table of changed metrics with CIs and
// their confirmation, the benchmarks not timed, the collapsible details.
#include <gtest/gtest.h>

#include "harness/gate/pr_report.hpp"
#include "tests/harness/gate/gate_test_support.hpp"

namespace abtest::gate {
namespace {

using stats::verdict;

pr_report report_of(gate_result r, fail_on policy = fail_on::regression) {
  pr_report rep;
  rep.base = "1111111111111111111111111111111111111111";
  rep.head = "2222222222222222222222222222222222222222";
  rep.head_ref = "feature";
  rep.result = std::move(r);
  rep.policy = policy;
  rep.exit_code = policy_exit_code(rep.result, policy);
  rep.wall_s = 42;
  rep.budget_s = 600;
  return rep;
}

TEST(markdown_comment, nothing_timed_says_why) {
  gate_result r;
  r.benchmarks = {test::identical("synth"), test::identical("proof")};
  const auto md = markdown_comment(report_of(r));
  EXPECT_EQ(md.substr(0, md.find('\n')),
            "**abtest pr: pass** — no benchmark can change: all 2 run identical programs on both sides — nothing timed "
            "(111111111111..222222222222, 42 s)");
  EXPECT_NE(md.find("Not timed: identical programs — `synth`, `proof`."), std::string::npos);
  EXPECT_NE(md.find("- `proof`: not timed — identical programs"), std::string::npos);
  EXPECT_EQ(md.find("| metric |"), std::string::npos) << "no table without a changed metric";
}

TEST(markdown_comment, a_confirmed_regression_has_its_row_with_both_cis) {
  gate_result r;
  r.benchmarks = {test::timed("proof"), test::identical("synth")};
  r.first = test::outcome("e1", 7, {test::metric("proof.total_s", verdict::slower, 3.0)}, 10, true, false);
  r.second = test::outcome("e2", 8, {test::metric("proof.total_s", verdict::slower, 2.9)}, 10, true, false);
  r.changed.push_back({r.first->metrics[0], r.second->metrics[0], confirmation::confirmed});
  const auto md = markdown_comment(report_of(r));
  EXPECT_EQ(md.find("**abtest pr: fail** — 1 regression(s) confirmed; 1 benchmark(s) timed, 1 not timed (identical programs)"), 0u)
      << md;
  EXPECT_NE(md.find("| `proof.total_s` | 1 | 3 | 3.0000 [2.9701, 3.0302] | SLOWER | confirmed: 2.9000 [2.8711, 2.9291] |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("<details><summary>How it measured</summary>"), std::string::npos);
  EXPECT_NE(md.find("- confirmation (fresh seed): experiment `e2`, seed 8, 10 rounds"), std::string::npos);
  EXPECT_NE(md.find("policy `--fail-on regression`, exit code 1"), std::string::npos);
}

TEST(markdown_comment, an_unconfirmed_change_is_shown_as_such_and_passes) {
  gate_result r;
  r.benchmarks = {test::timed("proof")};
  r.first = test::outcome("e1", 7, {test::metric("proof.total_s", verdict::slower, 1.05)}, 10, false, true);
  r.second = test::outcome("e2", 8, {test::metric("proof.total_s", verdict::same, 1.0)}, 10, false, false);
  r.changed.push_back({r.first->metrics[0], r.second->metrics[0], confirmation::unconfirmed});
  const auto md = markdown_comment(report_of(r));
  EXPECT_EQ(md.find("**abtest pr: pass** — no change found, 1 change(s) unconfirmed"), 0u) << md;
  EXPECT_NE(md.find("SLOWER (not reported) | **unconfirmed**: the rerun read SAME"), std::string::npos) << md;
  EXPECT_NE(md.find("**stopped by the wall budget**"), std::string::npos);
}

TEST(markdown_comment, no_confirm_says_so) {
  gate_result r;
  r.confirm = confirm_mode::none;
  r.benchmarks = {test::timed("proof")};
  r.first = test::outcome("e1", 7, {test::metric("proof.total_s", verdict::slower, 1.05)}, 10, false, false);
  r.changed.push_back({r.first->metrics[0], std::nullopt, confirmation::not_checked});
  const auto md = markdown_comment(report_of(r));
  EXPECT_NE(md.find("1 regression(s) (not confirmed: --no-confirm)"), std::string::npos) << md;
  EXPECT_NE(md.find("**--no-confirm**"), std::string::npos);
}

TEST(markdown_comment, alerts_recorded_and_touched_are_listed) {
  gate_result r;
  r.benchmarks = {test::timed("proof")};
  auto rep = report_of(r);
  rep.alerts_recorded.push_back({3, "pr", "feature", "new", {"proof.total_s"}});
  rep.alerts_touched.push_back({1, "nightly", "A1=4", "acknowledged", {"proof.total_s", "proof.synthesis_s"}});
  const auto md = markdown_comment(rep);
  EXPECT_NE(md.find("Alert recorded: #3 (pr feature, new: proof.total_s)"), std::string::npos) << md;
  EXPECT_NE(md.find("Touches open alert #1 (nightly A1=4, acknowledged: proof.total_s, proof.synthesis_s)"), std::string::npos);
}

}  // namespace
}  // namespace abtest::gate
