// `abtest build --matrix` below the CLI: the variants of each design over the manifest's toggles,
// env toggles left out, and the build order that changes one toggle at a time where it can.
#include "harness/experiment/build_matrix.hpp"

#include <gtest/gtest.h>

#include <set>

#include "harness/core/errors.hpp"

namespace abtest {
namespace {

manifest three_toggles() {
  return parse_manifest(R"({"project": "p", "build": {"targets": ["b"]},
    "toggles": [{"id": "A1", "option": "A1", "levels": ["0", "1", "4"], "on": "4"},
                {"id": "B1", "option": "B1"}, {"id": "C1", "option": "C1"},
                {"id": "W", "env": "ZK_W", "levels": ["auto", "16"]}],
    "benchmarks": [{"name": "b", "format": "json", "command": ["{bin}/b"]}]})",
                        "/p/abtest.json");
}

std::vector<std::string> keys(const std::vector<variant>& vs, const manifest& m) {
  std::vector<std::string> out;
  for (const auto& v : vs) out.push_back(v.key(m));
  return out;
}

TEST(design_variants, full_is_every_level_of_every_built_toggle) {
  const manifest m = three_toggles();
  const auto all = design_variants(m, {}, "full");
  EXPECT_EQ(all.size(), 3u * 2 * 2) << "the env toggle W needs no build";
  const auto k = keys(all, m);
  EXPECT_EQ(std::set<std::string>(k.begin(), k.end()).size(), all.size()) << "no variant twice";
  EXPECT_EQ(keys(design_variants(m, {"B1"}, "full"), m), (std::vector<std::string>{"base", "B1"}));
}

TEST(design_variants, two_level_designs_set_each_toggle_at_its_on_level) {
  const manifest m = three_toggles();
  const auto oat = keys(design_variants(m, {}, "oat"), m);  // each alone, and all together
  EXPECT_EQ(std::set<std::string>(oat.begin(), oat.end()), (std::set<std::string>{"base", "A1=4", "B1", "C1", "A1=4+B1+C1"}));
}

TEST(design_variants, an_env_toggle_or_a_design_that_does_not_fit_is_a_usage_error) {
  const manifest m = three_toggles();
  EXPECT_THROW(design_variants(m, {"W"}, "full"), user_error);
  try {
    design_variants(m, {"B1"}, "third");
    ADD_FAILURE() << "no design is called third";
  } catch (const user_error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    EXPECT_EQ(std::string(e.what()).rfind("--design third: ", 0), 0u) << e.what();
  }
}

TEST(reuse_order, starts_at_base_and_changes_one_toggle_a_step_where_it_can) {
  const manifest m = three_toggles();
  const auto order = reuse_order(design_variants(m, {"B1", "C1"}, "full"));
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order.front().key(m), "base");
  for (std::size_t i = 1; i < order.size(); ++i) EXPECT_EQ(toggle_distance(order[i - 1], order[i]), 1) << keys(order, m)[i];
  EXPECT_EQ(keys(order, m), (std::vector<std::string>{"base", "B1", "B1+C1", "C1"}));
}

TEST(toggle_distance, counts_the_toggles_that_differ_off_included) {
  variant a, b;
  a.levels = {{"A1", "4"}, {"B1", "on"}};
  b.levels = {{"A1", "1"}, {"C1", "on"}};
  EXPECT_EQ(toggle_distance(a, b), 3);
  EXPECT_EQ(toggle_distance(a, a), 0);
}

}  // namespace
}  // namespace abtest
