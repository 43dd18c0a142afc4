// Flipped defaults in the pull-request comment and --json: named beside the verdict, and each
// confirmed change attributed by the head built with the old default (design §5).
#include "harness/gate/attribution.hpp"

#include <gtest/gtest.h>

#include "harness/gate/pr_report.hpp"
#include "tests/harness/gate/gate_test_support.hpp"

namespace abtest::gate {
namespace {

using stats::verdict;

// A confirmed 1.08× regression of proof.total_s in a change that flipped FX_X2's default.
pr_report flipped(std::optional<flip_attribution> attribution) {
  pr_report rep;
  rep.base = "1111111111111111111111111111111111111111";
  rep.head = "2222222222222222222222222222222222222222";
  rep.result.benchmarks = {test::timed("proof")};
  rep.result.first = test::outcome("e1", 7, {test::metric("proof.total_s", verdict::slower, 1.08)});
  rep.result.second = test::outcome("e2", 8, {test::metric("proof.total_s", verdict::slower, 1.07)});
  rep.result.changed.push_back({rep.result.first->metrics[0], rep.result.second->metrics[0], confirmation::confirmed});
  rep.exit_code = policy_exit_code(rep.result, rep.policy);
  rep.flips = {{"FX_X2", "OFF", "ON", "OFF"}};
  rep.attribution = std::move(attribution);
  return rep;
}

reverted_default reverting(verdict v, double ratio, double half = 0.01) {
  return {"FX_X2", "OFF", "defaults+FX_X2=OFF@222222222222", {test::metric("proof.total_s", v, ratio, half)}};
}

TEST(attribution, a_reverted_default_that_does_not_move_accounts_for_the_change) {
  const metric_result head = test::metric("proof.total_s", verdict::slower, 1.08);
  EXPECT_EQ(share_of(reverting(verdict::same, 1.0), head), flip_share::accounts);
  EXPECT_EQ(share_of(reverting(verdict::slower, 1.05), head), flip_share::not_alone);
  // Undecided against the base: "most" when its CI leaves the head's 1.08 out, else unknown.
  EXPECT_EQ(share_of(reverting(verdict::inconclusive, 1.02), head), flip_share::most);
  EXPECT_EQ(share_of(reverting(verdict::inconclusive, 1.02, 0.1), head), flip_share::unknown);
  EXPECT_EQ(share_of(reverting(verdict::same, 1.0), test::metric("synth.total_s", verdict::slower, 1.08)), flip_share::unknown)
      << "not measured";
  EXPECT_EQ(reverted_text(reverting(verdict::same, 1.0), head),
            "reverting FX_X2's default alone gives 1.0000× [0.9900, 1.0101] (SAME): the flip accounts for it");
  EXPECT_EQ(reverted_text(reverting(verdict::inconclusive, 1.02), head),
            "reverting FX_X2's default alone gives 1.0200× [1.0099, 1.0303] (INCONCLUSIVE): the flip accounts for most of it "
            "(the head reads 1.0800× in the same rounds, outside this CI)");
  EXPECT_EQ(reverted_text({"FX_X2", "OFF", "", {}}, head), "the head does not build with FX_X2=OFF");
}

TEST(attribution, the_comment_names_the_flip_beside_the_verdict_and_attributes_it) {
  flip_attribution a;
  a.experiment = test::outcome("e3", 9, {test::metric("proof.total_s", verdict::slower, 1.08)});
  a.reverted = {reverting(verdict::same, 1.0)};
  const auto md = markdown_comment(flipped(a));
  const std::string summary = md.substr(0, md.find('\n'));
  EXPECT_NE(summary.find("**abtest pr: fail** — 1 regression(s) confirmed"), std::string::npos) << summary;
  EXPECT_NE(summary.find("; FX_X2: OFF → ON in this change"), std::string::npos) << summary;
  EXPECT_NE(md.find("Defaults changed:\n- `FX_X2: OFF → ON` in this change\n"), std::string::npos) << md;
  EXPECT_NE(md.find("- `proof.total_s`: SLOWER 1.08×; reverting FX_X2's default alone gives 1.0000×"), std::string::npos) << md;
  EXPECT_NE(md.find("- attribution (the head with each flipped default put back, beside the base and the head): experiment `e3`"),
            std::string::npos)
      << md;
}

TEST(attribution, pr_json_carries_the_flips_and_the_attribution) {
  flip_attribution a;
  a.experiment = test::outcome("e3", 9, {test::metric("proof.total_s", verdict::slower, 1.08)});
  a.reverted = {reverting(verdict::same, 1.0)};
  const auto j = to_json(flipped(a));
  ASSERT_EQ(j["defaults_changed"].size(), 1u);
  EXPECT_EQ(j["defaults_changed"][0]["text"], "FX_X2: OFF → ON");
  EXPECT_EQ(j["attribution"]["experiment"], "e3");
  EXPECT_EQ(j["attribution"]["reverted"][0]["toggle"], "FX_X2");
  EXPECT_EQ(j["attribution"]["reverted"][0]["metrics"][0]["share"], "accounts");
  EXPECT_NEAR(j["attribution"]["reverted"][0]["metrics"][0]["ratio"].get<double>(), 1.0, 1e-12);
  // No flip: an empty list and no attribution.
  pr_report plain = flipped(std::nullopt);
  plain.flips.clear();
  const auto k = to_json(plain);
  EXPECT_TRUE(k["defaults_changed"].empty());
  EXPECT_TRUE(k["attribution"].is_null());
  EXPECT_EQ(markdown_comment(plain).find("Defaults changed"), std::string::npos);
}

}  // namespace
}  // namespace abtest::gate
