// The tables of the markdown and HTML reports: verdicts and effects with their CI, regressions first
// then by the size of the effect; change points open and worse first; sizes and counts read HIGHER /
// LOWER instead of SLOWER / FASTER.
#include <gtest/gtest.h>

#include <unistd.h>

#include <tuple>

#include <nlohmann/json.hpp>

#include "db/results_store.hpp"
#include "db/time_text.hpp"
#include "harness/report/exporter.hpp"
#include "report_fixture.hpp"

namespace abtest::report {
namespace {

db::verdict_record row(std::string variant, std::string metric, double ratio, db::verdict_kind verdict) {
  db::verdict_record v;
  v.experiment_id = "n-6";
  v.variant = std::move(variant);
  v.baseline = "base";
  v.metric = std::move(metric);
  v.n = 6;
  v.baseline_median = 1.0;
  v.candidate_median = ratio;
  v.ratio = ratio;
  v.ci_low = ratio * 0.99;
  v.ci_high = ratio * 1.01;
  v.p_value = v.p_adjusted = 0.001;
  v.verdict = verdict;
  return v;
}

class tables : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() / ("abtest-report-tables-" + std::to_string(::getpid()) + ".db");
    testing::write_fixture(path_);
    db::results_store store(path_);
    // Stored in name order (variant, metric); a reader wants the regressions first, largest effect first.
    store.replace_verdicts("n-6", std::vector{row("A1=4", "proof.maxrss_mib", 1.20, db::verdict_kind::slower),
                                              row("A1=4", "proof.total_s", 1.03, db::verdict_kind::slower),
                                              row("A1=4", "proof.synthesis_s", 0.70, db::verdict_kind::faster),
                                              row("A1=4", "proof.msm_a_s", 1.002, db::verdict_kind::same)});
  }
  // Stored by term; a reader wants the resolved regressions first, then the largest.
  void add_effects() {
    db::results_store store(path_);
    const auto fx = [](std::string term, double e, double lo, double hi) {
      return db::effect_record{"n-6", "proof.total_s", std::move(term), e, 0.005, lo, hi, 0.01, 0.02, std::nullopt};
    };
    store.replace_effects("n-6", std::vector{fx("A1=4", 0.02, 0.01, 0.03), fx("A1=4*B1", 0.04, 0.03, 0.05),
                                             fx("A2", -0.08, -0.09, -0.07), fx("B1", 0.05, -0.01, 0.11)});
  }
  void TearDown() override {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_.string() + suffix);
  }
  report_data load() {
    db::results_store store(path_, db::open_mode::read_only);
    return load_experiment(store, "n-6");
  }
  std::filesystem::path path_;
};

TEST_F(tables, verdicts_are_ordered_regressions_first_then_by_effect) {
  const auto r = load();
  ASSERT_EQ(r.verdicts.size(), 4u);
  EXPECT_EQ(r.verdicts[0].metric, "proof.maxrss_mib");   // regression, +20%
  EXPECT_EQ(r.verdicts[1].metric, "proof.total_s");      // regression, +3%
  EXPECT_EQ(r.verdicts[2].metric, "proof.synthesis_s");  // −30%
  EXPECT_EQ(r.verdicts[3].metric, "proof.msm_a_s");      // +0.2%
}

TEST_F(tables, markdown_carries_the_ci_and_says_higher_for_a_size) {
  const std::string md = make_exporter(format::markdown)->render(load());
  EXPECT_NE(md.find("| A1=4 | proof.maxrss_mib | 6 | 1 | 1.2 | +20.00% | [+18.80%, +21.20%] | 0.001 | HIGHER (worse) |"),
            std::string::npos) << md;
  EXPECT_NE(md.find("| FASTER |"), std::string::npos) << md;
  EXPECT_LT(md.find("| proof.maxrss_mib |"), md.find("| proof.synthesis_s |")) << md;
}

TEST_F(tables, html_carries_the_ci_and_says_higher_for_a_size) {
  const std::string html = make_exporter(format::html)->render(load());
  EXPECT_NE(html.find("<th>95% CI</th>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>[+18.80%, +21.20%]</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>HIGHER (worse)</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>SLOWER</td>"), std::string::npos) << html;
  EXPECT_LT(html.find("<td>proof.maxrss_mib</td>"), html.find("<td>proof.synthesis_s</td>"));
}

TEST_F(tables, effects_are_ordered_regressions_first_then_by_size) {
  add_effects();
  const auto r = load();
  std::vector<std::string> terms;
  for (const auto& e : r.effects) terms.push_back(e.term);
  EXPECT_EQ(terms, (std::vector<std::string>{"A1=4*B1", "A1=4", "A2", "B1"}));
  const std::string md = make_exporter(format::markdown)->render(r);
  EXPECT_NE(md.find("| proof.total_s | A1=4*B1 | +0.0400 | [+0.0300, +0.0500] | 0.02 |"), std::string::npos) << md;
  EXPECT_LT(md.find("| A1=4*B1 |"), md.find("| A1=4 | +0.0200"));
  EXPECT_LT(md.find("| A1=4 | +0.0200"), md.find("| A2 |"));
  EXPECT_LT(md.find("| A2 |"), md.find("| B1 |"));
}

// A bisection stores each term with the role the search gave it (schema 7): a candidate whose
// confirmations did not support it is listed as rejected, whichever way it points — never as a
// culprit or an offset by its sign.
TEST_F(tables, a_rejected_candidate_is_reported_as_rejected) {
  {
    db::results_store store(path_);
    const auto fx = [](std::string term, double e, const char* role) {
      return db::effect_record{"n-6", "proof.total_s", std::move(term), e, std::nullopt, e - 0.01, e + 0.01,
                               std::nullopt, std::nullopt, role};
    };
    store.replace_effects("n-6", std::vector{fx("A2", 0.05, "culprit"), fx("D4", -0.05, "offset"),
                                             fx("B1*D4", 0.008, "rejected"), fx("B1", -0.004, "rejected")});
  }
  const auto j = nlohmann::json::parse(make_exporter(format::json)->render(load()));
  ASSERT_EQ(j["culprits"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["culprits"][0]["toggles"], nlohmann::json({"A2"}));
  ASSERT_EQ(j["offsets"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["offsets"][0]["toggles"], nlohmann::json({"D4"}));
  ASSERT_EQ(j["rejected"].size(), 2u) << j.dump(2);
  const std::string md = make_exporter(format::markdown)->render(load());
  EXPECT_LT(md.find("## Rejected candidates"), md.find("| proof.total_s | B1*D4 |")) << md;
  EXPECT_LT(md.find("## Offsets"), md.find("## Rejected candidates")) << md;
}

TEST_F(tables, html_has_the_effects_table_with_the_ci) {
  add_effects();
  const std::string html = make_exporter(format::html)->render(load());
  ASSERT_NE(html.find("<h2>Effects"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>A1=4*B1</td><td>+4.08%</td><td>[+3.05%, +5.13%]</td>"), std::string::npos) << html;
  EXPECT_LT(html.find("<td>A1=4*B1</td>"), html.find("<td>B1</td>"));
}

TEST_F(tables, change_points_open_and_worse_first_then_by_size) {
  {
    db::results_store store(path_);
    for (const auto& [variant, magnitude, state] : {std::tuple{"base", -0.10, db::changepoint_state::new_},
                                                    std::tuple{"A1=4", 0.20, db::changepoint_state::acknowledged}}) {
      db::changepoint_record c;
      c.variant = variant;
      c.metric = "proof.total_s";
      c.at_experiment = "n-5";
      c.at_time = db::parse_utc("2026-11-05T02:00:00.000Z");
      c.magnitude = magnitude;
      c.state = state;
      const auto id = store.record_changepoint(c);
      if (state != db::changepoint_state::new_) store.set_changepoint_state(id, state);
    }
  }
  db::results_store store(path_, db::open_mode::read_only);
  const auto r = load_nightly(store);
  ASSERT_EQ(r.changepoints.size(), 3u);
  EXPECT_EQ(r.changepoints[0].magnitude, 0.0395);  // the fixture's: new and slower
  EXPECT_EQ(r.changepoints[1].magnitude, 0.20);    // acknowledged: no longer an alarm, but the largest
  EXPECT_EQ(r.changepoints[2].magnitude, -0.10);   // new, faster
}

}  // namespace
}  // namespace abtest::report
