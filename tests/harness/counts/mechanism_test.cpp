// Tests of the mechanism diff (totals, cg_diff-style functions, allocation sites), its JSON and
// terminal forms, and of count_set's metrics and JSON form.
#include "harness/counts/mechanism.hpp"

#include <gtest/gtest.h>

#include <regex>

#include "harness/counts/count_set.hpp"
#include "harness/counts/mechanism_format.hpp"

namespace abtest::counts {
namespace {

function_counts fn(const std::string& name, count ir, count d1mr = 0) {
  return {name, name + ".cpp", {{"Ir", ir}, {"D1mr", d1mr}}};
}

// The base arm: Ir 1000 = f 600 + g 300 + h 100.
count_set base_arm() {
  count_set c;
  c.totals = {{"Ir", 1000}, {"D1mr", 50}, {"LLmr", 10}, {"Bcm", 7}, {"alloc_blocks", 100},
              {"alloc_bytes", 4800}, {"Dr", 300}};
  for (const auto& f : {fn("f", 600, 30), fn("g", 300, 20), fn("h", 100)}) c.functions.emplace(f.name, f);
  c.alloc_sites = {{"push (lc.cpp:10)", 90, 4320}, {"init (x.cpp:1)", 10, 480}};
  c.cache_config = "I1 cache: 32768 B, 64 B, 8-way associative";
  c.valgrind_version = "valgrind-3.19.0";
  return c;
}

// The candidate: f −100 Ir, g's Ir unchanged (D1mr +2), h −50, n new with 50; fewer blocks at push.
count_set candidate_arm() {
  count_set c = base_arm();
  c.totals = {{"Ir", 900}, {"D1mr", 45}, {"LLmr", 10}, {"Bcm", 9}, {"alloc_blocks", 40}, {"alloc_bytes", 1920}};
  c.functions.clear();
  for (const auto& f : {fn("f", 500, 25), fn("g", 300, 22), fn("h", 50), fn("n", 50)}) c.functions.emplace(f.name, f);
  c.alloc_sites = {{"push (lc.cpp:10)", 30, 1440}, {"init (x.cpp:1)", 10, 480}};
  return c;
}

TEST(diff_counts, totals_that_moved_in_headline_order) {
  const mechanism m = diff_counts(base_arm(), candidate_arm());
  ASSERT_EQ(m.moved.size(), 5u);
  const std::vector<std::string> names = {"Ir", "D1mr", "Bcm", "alloc_blocks", "alloc_bytes"};
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(m.moved[i].name, names[i]);
  EXPECT_EQ(m.moved[0].base, 1000u);
  EXPECT_EQ(m.moved[0].candidate, 900u);
  EXPECT_EQ(m.moved[0].delta, -100);
  EXPECT_DOUBLE_EQ(*m.moved[0].relative, -0.1);
  EXPECT_EQ(m.moved[2].delta, 2);
  EXPECT_EQ(m.moved[4].delta, -2880);
  EXPECT_EQ(m.unchanged, std::vector<std::string>{"LLmr"});
  EXPECT_TRUE(m.missing.empty()) << "Dr is not a headline count";
  EXPECT_TRUE(m.comparable);
}

TEST(diff_counts, every_total_when_asked) {
  const mechanism m = diff_counts(base_arm(), candidate_arm(), {.headline_only = false});
  EXPECT_EQ(m.missing, std::vector<std::string>{"Dr"}) << "measured in the base arm only";
}

TEST(diff_counts, top_functions_by_absolute_delta_ties_by_name) {
  const mechanism m = diff_counts(base_arm(), candidate_arm());
  ASSERT_EQ(m.functions.size(), 3u) << "g's Ir did not move, so it is not listed";
  EXPECT_EQ(m.functions[0].name, "f");
  EXPECT_EQ(m.functions[0].delta, -100);
  EXPECT_DOUBLE_EQ(*m.functions[0].relative, -100.0 / 600.0);
  EXPECT_EQ(m.functions[0].event_deltas, (std::map<std::string, std::int64_t>{{"Ir", -100}, {"D1mr", -5}}));
  EXPECT_EQ(m.functions[1].name, "h") << "|-50| ties with n's +50: by name";
  EXPECT_EQ(m.functions[2].name, "n");
  EXPECT_EQ(m.functions[2].base, 0u);
  EXPECT_EQ(m.functions[2].candidate, 50u);
  EXPECT_FALSE(m.functions[2].relative.has_value()) << "new in the candidate";
  EXPECT_EQ(m.functions[2].file, "n.cpp");

  const mechanism top2 = diff_counts(base_arm(), candidate_arm(), {.top_functions = 2});
  ASSERT_EQ(top2.functions.size(), 2u);
  EXPECT_EQ(top2.functions[1].name, "h");

  const mechanism by_d1 = diff_counts(base_arm(), candidate_arm(), {.rank_by = "D1mr"});
  ASSERT_EQ(by_d1.functions.size(), 2u) << "f (-5) and g (+2); h and n have no D1mr change";
  EXPECT_EQ(by_d1.functions[0].name, "f");
  EXPECT_EQ(by_d1.functions[1].name, "g");
  EXPECT_EQ(by_d1.functions[1].delta, 2);
}

TEST(diff_counts, renamed_functions_and_sites_are_matched_and_merged) {
  count_set base, candidate;
  for (const auto& f : {fn("indexer<0ul>::add", 600), fn("indexer<0ul>::eval", 50), fn("keep", 7)})
    base.functions.emplace(f.name, f);
  for (const auto& f : {fn("indexer<4ul>::add", 500), fn("indexer<4ul>::eval", 50), fn("keep", 9)})
    candidate.functions.emplace(f.name, f);
  base.alloc_sites = {{"indexer<0ul>::add (in /a/base/bin)", 10, 100}, {"indexer<0ul>::grow (in /a/base/bin)", 5, 50}};
  candidate.alloc_sites = {{"indexer<4ul>::add (in /a/A1/bin)", 4, 40}};
  const diff_options o{.rename = {{"<[0-9]+ul>", "<N>"}, {R"( \(in /.*/)", " (in "}}};
  const mechanism m = diff_counts(base, candidate, o);
  ASSERT_EQ(m.functions.size(), 2u) << "eval matched and unchanged";
  EXPECT_EQ(m.functions[0].name, "indexer<N>::add");
  EXPECT_EQ(m.functions[0].delta, -100);
  EXPECT_EQ(m.functions[0].base, 600u);
  EXPECT_EQ(m.functions[1].name, "keep");
  ASSERT_EQ(m.alloc_sites.size(), 2u);
  EXPECT_EQ(m.alloc_sites[0].where, "indexer<N>::add (in bin)");
  EXPECT_EQ(m.alloc_sites[0].delta_blocks, -6);
  EXPECT_EQ(m.alloc_sites[1].where, "indexer<N>::grow (in bin)");

  count_set merged;
  for (const auto& f : {fn("v<1>", 3), fn("v<2>", 4)}) merged.functions.emplace(f.name, f);
  const mechanism sum = diff_counts(count_set{}, merged, {.rename = {{"<[0-9]>", "<N>"}}});
  ASSERT_EQ(sum.functions.size(), 1u);
  EXPECT_EQ(sum.functions[0].candidate, 7u) << "names that meet are summed";
  EXPECT_THROW(diff_counts(base, candidate, {.rename = {{"(", ""}}}), std::regex_error);
}

TEST(diff_counts, allocation_sites_that_moved) {
  const mechanism m = diff_counts(base_arm(), candidate_arm());
  ASSERT_EQ(m.alloc_sites.size(), 1u) << "init did not move";
  EXPECT_EQ(m.alloc_sites[0].where, "push (lc.cpp:10)");
  EXPECT_EQ(m.alloc_sites[0].delta_blocks, -60);
  EXPECT_EQ(m.alloc_sites[0].delta_bytes, -2880);
  EXPECT_EQ(m.alloc_sites[0].base_bytes, 4320u);
  EXPECT_EQ(m.alloc_sites[0].candidate_bytes, 1440u);
}

TEST(diff_counts, identical_sets_move_nothing) {
  const mechanism m = diff_counts(base_arm(), base_arm());
  EXPECT_TRUE(m.moved.empty());
  EXPECT_TRUE(m.functions.empty());
  EXPECT_TRUE(m.alloc_sites.empty());
  EXPECT_EQ(m.unchanged.size(), headline_counts.size());
}

TEST(diff_counts, different_caches_are_flagged_not_comparable) {
  count_set other = candidate_arm();
  other.cache_config = "I1 cache: 65536 B, 64 B, 8-way associative";
  const mechanism m = diff_counts(base_arm(), other);
  EXPECT_FALSE(m.comparable);
  EXPECT_NE(m.incomparable_reason.find("simulated caches differ"), std::string::npos);
  other = candidate_arm();
  other.valgrind_version = "valgrind-3.22.0";
  EXPECT_NE(diff_counts(base_arm(), other).incomparable_reason.find("Valgrind versions differ"), std::string::npos);
  other = candidate_arm();
  other.region = "ns::f*";
  EXPECT_NE(diff_counts(base_arm(), other).incomparable_reason.find("counted regions differ"), std::string::npos);
}

mechanism labelled() {
  mechanism m = diff_counts(base_arm(), candidate_arm());
  m.base_label = "base";
  m.candidate_label = "A1=4";
  return m;
}

TEST(mechanism_format, json) {
  const nlohmann::json j = to_json(labelled());
  EXPECT_EQ(j["base"], "base");
  EXPECT_EQ(j["candidate"], "A1=4");
  EXPECT_EQ(j["rank_by"], "Ir");
  EXPECT_EQ(j["region"], "");
  EXPECT_EQ(j["comparable"], true);
  EXPECT_FALSE(j.contains("incomparable_reason"));
  EXPECT_EQ(j["counts"][0], nlohmann::json::parse(R"({"name": "Ir", "base": 1000, "candidate": 900,
                                                       "delta": -100, "relative": -0.1})"));
  EXPECT_EQ(j["unchanged"], nlohmann::json::parse(R"(["LLmr"])"));
  EXPECT_EQ(j["functions"][2]["relative"], nullptr);
  EXPECT_EQ(j["functions"][0]["deltas"], nlohmann::json::parse(R"({"D1mr": -5, "Ir": -100})"));
  EXPECT_EQ(j["alloc_sites"][0], nlohmann::json::parse(R"json({"where": "push (lc.cpp:10)", "delta_blocks": -60,
      "delta_bytes": -2880, "base_bytes": 4320, "candidate_bytes": 1440})json"));
}

TEST(mechanism_format, terminal_golden) {
  const std::string expected =
      "mechanism: A1=4 vs base (Valgrind counts, exact)\n"
      "  Ir                      1,000 →             900            -100   -10.00%\n"
      "  D1mr                       50 →              45              -5   -10.00%\n"
      "  Bcm                         7 →               9              +2   +28.57%\n"
      "  alloc_blocks              100 →              40             -60   -60.00%\n"
      "  alloc_bytes             4,800 →           1,920          -2,880   -60.00%\n"
      "  unchanged: LLmr\n"
      "  functions by Δ Ir:\n"
      "              -100   -16.67%  f  [D1mr -5]\n"
      "               -50   -50.00%  h\n"
      "               +50       new  n\n"
      "  allocation sites by Δ bytes:\n"
      "            -2,880 B          -60 blocks  push (lc.cpp:10)\n";
  EXPECT_EQ(format_terminal(labelled()), expected);
}

TEST(mechanism_format, the_header_names_the_region) {
  mechanism m;
  m.base_label = "base";
  m.candidate_label = "A2";
  m.region = "zk::bench::run_synthesis*";
  EXPECT_EQ(format_terminal(m), "mechanism: A2 vs base (Valgrind counts in zk::bench::run_synthesis*, exact)\n"
                                "  no count moved\n");
}

TEST(mechanism_format, long_names_are_cut) {
  mechanism m;
  m.functions.push_back({std::string(30, 'x'), "", 1, 2, 1, 1.0, {{"Ir", 1}}});
  const std::string text = format_terminal(m, {.name_width = 10});
  EXPECT_NE(text.find(std::string(10, 'x') + "…\n"), std::string::npos) << text;
  EXPECT_EQ(text.find(std::string(11, 'x')), std::string::npos) << text;
}

TEST(count_set, headline_metrics_and_json_round_trip) {
  count_set c = base_arm();
  c.command = "./prog 10";
  c.region = "f*";
  const std::map<std::string, double> metrics = {
      {"synth.counts.Ir", 1000},          {"synth.counts.D1mr", 50},           {"synth.counts.LLmr", 10},
      {"synth.counts.Bcm", 7},            {"synth.counts.alloc_blocks", 100}, {"synth.counts.alloc_bytes", 4800}};
  EXPECT_EQ(to_metrics(c, "synth"), metrics) << "headline counts only (no Dr)";
  c.totals.erase("alloc_blocks");
  EXPECT_EQ(to_metrics(c, "synth").count("synth.counts.alloc_blocks"), 0u) << "absent, not zero";

  const count_set back = count_set_from_json(to_json(c));
  EXPECT_EQ(back.totals, c.totals);
  EXPECT_EQ(back.functions.size(), c.functions.size());
  EXPECT_EQ(back.functions.at("f").events, c.functions.at("f").events);
  EXPECT_EQ(back.functions.at("f").file, "f.cpp");
  ASSERT_EQ(back.alloc_sites.size(), 2u);
  EXPECT_EQ(back.alloc_sites[0].where, "push (lc.cpp:10)");
  EXPECT_EQ(back.alloc_sites[0].bytes, 4320u);
  EXPECT_EQ(back.cache_config, c.cache_config);
  EXPECT_EQ(back.valgrind_version, c.valgrind_version);
  EXPECT_EQ(back.command, c.command);
  EXPECT_EQ(back.region, "f*");
  EXPECT_TRUE(diff_counts(c, back).moved.empty());
}

// bisect's counts screen: the work moves at 10 ppm, the simulated counts (which a layout moves) at 1%
// and 10 events. The figures are the planted fixture's: its LAYOUT toggle (same instructions, the
// hot loop 48 bytes on) against base.
TEST(moved_counts, the_work_moves_at_ten_ppm_and_the_simulated_counts_at_one_percent) {
  count_set base, layout, slow, gbench_rerun;
  base.totals = {{"Ir", 3625681}, {"D1mr", 28}, {"LLmr", 19}, {"Bcm", 8039}, {"alloc_blocks", 4}, {"alloc_bytes", 76825}};
  layout = base;
  layout.totals["Bcm"] = 8035;
  layout.totals["LLmr"] = 20;
  EXPECT_TRUE(moved_counts(base, layout).empty()) << "a layout-only change moves no count";
  slow = base;
  slow.totals["Ir"] = 4712883;
  slow.totals["Bcm"] = 10457;
  EXPECT_EQ(moved_counts(base, slow), (std::vector<std::string>{"Ir", "Bcm"}));
  gbench_rerun = base;
  gbench_rerun.totals["Ir"] += 30;  // 8.3 ppm: what a benchmark's own report changes
  EXPECT_TRUE(moved_counts(base, gbench_rerun).empty());
  gbench_rerun.totals["Ir"] += 10;  // 11 ppm
  EXPECT_EQ(moved_counts(base, gbench_rerun), std::vector<std::string>{"Ir"});
  count_set one_block = base;
  one_block.totals["alloc_blocks"] = 5;
  EXPECT_EQ(moved_counts(base, one_block), std::vector<std::string>{"alloc_blocks"}) << "one heap block more is work";
  count_set misses = base;
  misses.totals["D1mr"] = 1000;
  base.totals["D1mr"] = 2000;
  EXPECT_EQ(moved_counts(base, misses), std::vector<std::string>{"D1mr"}) << "half the misses: a data-layout toggle is timed";
  count_set absent;
  absent.totals = {{"Ir", 1}};
  EXPECT_EQ(moved_counts(base, absent), std::vector<std::string>{"Ir"}) << "only counts present in both are compared";
}

}  // namespace
}  // namespace abtest::counts
