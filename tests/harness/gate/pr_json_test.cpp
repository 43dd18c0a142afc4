// Tests of `abtest pr --json`: the keys of the contract (docs/design.md §9.2) and their values.
#include <gtest/gtest.h>

#include <stdexcept>

#include "harness/gate/pr_report.hpp"
#include "tests/harness/gate/gate_test_support.hpp"

namespace abtest::gate {
namespace {

using stats::verdict;

TEST(pr_json, carries_the_contract) {
  pr_report rep;
  rep.base = "b";
  rep.head = "h";
  rep.result.benchmarks = {test::timed("proof"), test::identical("synth")};
  rep.result.first = test::outcome("e1", 7, {test::metric("proof.total_s", verdict::slower, 2.0)}, 12, true, false);
  rep.result.second = test::outcome("e2", 9, {test::metric("proof.total_s", verdict::same, 1.0)}, 12, true, false);
  rep.result.changed.push_back({rep.result.first->metrics[0], rep.result.second->metrics[0], confirmation::unconfirmed});
  rep.exit_code = policy_exit_code(rep.result, rep.policy);
  const auto j = to_json(rep);
  for (const char* key : {"base", "head", "verdict", "exit_code", "fail_on", "confirm", "summary", "benchmarks", "changed",
                          "regressions", "first", "confirmation", "alerts", "wall_s"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["verdict"], "pass");
  EXPECT_EQ(j["exit_code"], 0);
  EXPECT_EQ(j["benchmarks"][1], (nlohmann::json{{"name", "synth"}, {"timed", false}, {"reason", "identical programs"}}));
  const auto& c = j["changed"][0];
  EXPECT_EQ(c["metric"], "proof.total_s");
  EXPECT_EQ(c["verdict"], "slower");
  EXPECT_EQ(c["confirmation"], "unconfirmed");
  EXPECT_EQ(c["reported"], false);
  EXPECT_EQ(c["confirmed_by"]["verdict"], "same");
  EXPECT_NEAR(c["ratio"].get<double>(), 2.0, 1e-12);
  EXPECT_EQ(j["regressions"], 0);
  EXPECT_EQ(j["first"]["experiment"], "e1");
  EXPECT_EQ(j["confirmation"]["seed"], 9);
}

TEST(pr_json, renders_through_the_one_output_interface) {
  pr_report rep;
  rep.base = "b";
  rep.head = "h";
  rep.result.benchmarks = {test::identical("synth")};
  rep.comment_file = "/tmp/pr.md";
  const auto j = nlohmann::json::parse(render(rep, report::format::json));
  EXPECT_EQ(j["comment"], "/tmp/pr.md");
  EXPECT_EQ(j["summary"], summary_line(rep));
  EXPECT_EQ(render(rep, report::format::markdown), markdown_comment(rep));
  EXPECT_EQ(render(rep, report::format::terminal), markdown_comment(rep) + "\n");
  EXPECT_THROW(render(rep, report::format::html), std::invalid_argument);
}

TEST(pr_json, a_ci_without_bounds_is_null_not_infinity) {
  pr_report rep;
  rep.result.benchmarks = {test::timed("proof")};
  metric_result m;
  m.metric = "proof.total_s";
  m.verdict = verdict::slower;  // made up: a verdict without a CI, to check the encoding only
  rep.result.changed.push_back({m, std::nullopt, confirmation::not_checked});
  const auto j = to_json(rep);
  EXPECT_TRUE(j["changed"][0]["ci_low"].is_null());
  EXPECT_TRUE(j["changed"][0]["ci_high"].is_null());
}

}  // namespace
}  // namespace abtest::gate
