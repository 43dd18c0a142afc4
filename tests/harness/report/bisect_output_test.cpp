// `abtest bisect`'s result rendered: a search's result in, the exact terminal text and the --json
// contract (design §9) out — culprit, offset, rejected and undecided terms, a stopped search, the
// plan's price.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/report/bisect_output.hpp"

namespace abtest::report {
namespace {

search::culprit term(std::vector<std::string> toggles, double ratio, double low, double high, std::string support = "matrix") {
  search::culprit c;
  c.toggles = std::move(toggles);
  c.effect = std::log(ratio);
  c.ci_low = std::log(low);
  c.ci_high = std::log(high);
  c.confirmed = support != "A/Bs";
  c.support = std::move(support);
  return c;
}

// A time metric 1.30× slower: SLOW is the culprit, FAST an offset, NOISE a rejected candidate.
bisect_result slow_search() {
  bisect_result o;
  o.experiment = "b-1";
  o.metric = "planted.total_s";
  o.r.from_key = "base";
  o.r.to_key = "SLOW+FAST+NOISE";
  o.r.overall.verdict = stats::verdict::slower;
  o.r.overall.estimate = {.n = 10, .estimate = std::log(1.25), .ci_low = std::log(1.2), .ci_high = std::log(1.3), .has_ci = true};
  o.r.method = "factorial full 2^3";
  o.r.comparisons = 3;
  o.r.runs = 96;
  o.r.builds = 8;
  o.r.used = {96, 8, 120.0};
  o.r.full_factorial = {192, 8, 240.0};
  o.r.half_width = 0.02;
  o.r.full_matrix_runs = 80;
  o.r.skipped = {"BROKEN"};
  o.split.culprits = {term({"SLOW"}, 1.30, 1.28, 1.32)};
  o.split.offsets = {term({"FAST"}, 0.96, 0.95, 0.97)};
  o.split.rejected = {term({"NOISE"}, 1.01, 0.99, 1.03, "A/Bs")};
  o.notes = {"BROKEN does not build — left out (skipped)"};
  o.wall_s = 130.4;
  o.regression = true;
  return o;
}

TEST(bisect_output, terminal_names_each_term_by_its_role) {
  EXPECT_EQ(render(slow_search(), format::terminal),
            "note: BROKEN does not build — left out (skipped)\n"
            "SLOW+FAST+NOISE vs base on planted.total_s: SLOWER (ratio 1.2500, 95% CI 1.2000–1.3000)\n"
            "method: factorial full 2^3; 3 comparisons, 96 runs, 8 builds, 130 s measured (~120 s at the unit costs)\n"
            "a full factorial to the same precision (95% CI ±0.0200 on the culprits): 192 runs, 8 builds, ~240 s — the search "
            "cost 0.50x its runs, 0.50x its wall (both at the unit costs)\n"
            "culprit SLOW                     ratio 1.3000 (CI 1.2800–1.3200)\n"
            "offset  FAST                     ratio 0.9600 (CI 0.9500–0.9700) — pulls the other way (FASTER)\n"
            "candidate NOISE                  ratio 1.0100 — the confirmation A/Bs did not support it\n"
            "skipped: BROKEN\n");
}

TEST(bisect_output, json_keeps_the_contract_keys) {
  const auto j = nlohmann::json::parse(render(slow_search(), format::json));
  EXPECT_EQ(j["experiment"], "b-1");
  EXPECT_EQ(j["from"], "base");
  EXPECT_EQ(j["to"], "SLOW+FAST+NOISE");
  EXPECT_EQ(j["better"], "lower");
  EXPECT_EQ(j["verdict"], "slower");
  ASSERT_EQ(j["culprits"].size(), 1u);
  EXPECT_EQ(j["culprits"][0]["toggles"], nlohmann::json({"SLOW"}));
  EXPECT_NEAR(j["culprits"][0]["ratio"].get<double>(), 1.30, 1e-12);
  EXPECT_EQ(j["culprits"][0]["support"], "matrix");
  EXPECT_FALSE(j["culprits"][0].contains("mechanisms"));  // no counts screen
  EXPECT_EQ(j["offsets"][0]["toggles"], nlohmann::json({"FAST"}));
  EXPECT_EQ(j["rejected"][0]["confirmed"], false);
  EXPECT_TRUE(j["undecided"].empty());
  EXPECT_TRUE(j["stopped"].is_null());
  EXPECT_TRUE(j["counts_screen"].is_null());
  EXPECT_EQ(j["skipped"], nlohmann::json({"BROKEN"}));
  EXPECT_EQ(j["runs"], 96);
  EXPECT_EQ(j["full_matrix_runs"], 80);
  EXPECT_EQ(j["full_factorial"], nlohmann::json({{"runs", 192}, {"builds", 8}, {"wall_s", 240.0}}));
  EXPECT_EQ(j["wall_basis"], "measured");
  EXPECT_EQ(j["notes"].size(), 1u);
}

TEST(bisect_output, a_stopped_search_lists_what_it_left_undecided) {
  bisect_result o = slow_search();
  o.stopped = "budget";
  o.r.undecided = {term({"PAIR1", "PAIR2"}, 1.04, 0.99, 1.09, "undecided")};
  const std::string text = render(o, format::terminal);
  EXPECT_NE(text.find("undecided: PAIR1*PAIR2 1.04× [0.99, 1.09]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("stopped by --budget-s after 130 s: undecided PAIR1*PAIR2 1.0400 (CI 0.9900–1.0900) — culprits and "
                      "offsets above are the terms it had decided\n"),
            std::string::npos)
      << text;
  const auto j = nlohmann::json::parse(render(o, format::json));
  EXPECT_EQ(j["stopped"], "budget");
  EXPECT_EQ(j["undecided"][0]["toggles"], nlohmann::json({"PAIR1", "PAIR2"}));
}

TEST(bisect_output, a_rate_reads_higher_and_lower) {
  bisect_result o = slow_search();
  o.metric = "planted.ops_per_s";
  o.worse = -1;  // a rate: a fall is worse
  const std::string text = render(o, format::terminal);
  EXPECT_NE(text.find("on planted.ops_per_s: LOWER"), std::string::npos) << text;
  EXPECT_EQ(nlohmann::json::parse(render(o, format::json))["better"], "higher");
}

TEST(bisect_output, has_no_markdown_of_its_own) {
  EXPECT_THROW(render(slow_search(), format::markdown), std::invalid_argument);
}

TEST(bisect_output, plan_text_lists_the_alternatives) {
  search::search_plan p;
  p.chosen = {search::design_choice::half, "half 2^(5-1) E=ABCD", 16, 6, {212, 18, 19927.4}};
  p.alternatives = {p.chosen, {search::design_choice::full, "full 2^5", 32, 6, {384, 32, 38000.0}}};
  p.reason = "cheapest in wall time";
  EXPECT_EQ(plan_text(p),
            "plan (cheapest in wall time): half 2^(5-1) E=ABCD: 212 runs, 18 builds, ~19927 s (full 2^5: 384 runs, 32 builds, ~38000 s)");
  const auto j = plan_json(p, {10.0, 0.5, 0.02, "defaults"});
  EXPECT_EQ(j["design"], "half 2^(5-1) E=ABCD");
  EXPECT_EQ(j["alternatives"].size(), 2u);
  EXPECT_EQ(j["costs"]["basis"], "defaults");
}

}  // namespace
}  // namespace abtest::report
