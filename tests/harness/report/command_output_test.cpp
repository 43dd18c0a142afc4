// The results of run, compare, matrix and show rendered: an analysed comparison in, the exact
// terminal verdict row and the --json contract (design §9) out; the command's own lines and keys
// beside them; a matrix's notes, design and effects; a stored verdict as `show` prints it; alerts.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/report/alerts.hpp"
#include "harness/report/comparison_output.hpp"
#include "harness/report/matrix_output.hpp"
#include "harness/report/show_output.hpp"

namespace abtest::report {
namespace {

run_plan two_arms() {
  run_plan plan;
  plan.arms.resize(2);
  plan.arms[0].key = "base";
  plan.arms[0].role = "baseline";
  plan.arms[1].key = "SLOW";
  plan.arms[1].role = "candidate";
  plan.benchmarks = {"planted"};
  plan.seed = 11;
  plan.margin = 0.01;
  return plan;
}

// SLOW 1.30× slower on planted.total_s, decided after 10 rounds.
analysis_result slow_analysis() {
  analysis_result a;
  a.arms = {{10, 0, "", "", "cpu"}, {10, 0, "", "", "cpu"}};
  verdict_row r;
  r.arm = 1;
  r.variant = "SLOW";
  r.baseline = "base";
  r.benchmark = "planted";
  r.metric = "planted.total_s";
  r.n = 10;
  r.baseline_median = 0.0100;
  r.candidate_median = 0.0130;
  r.primary = {.n = 10, .estimate = std::log(1.3), .ci_low = std::log(1.28), .ci_high = std::log(1.32), .p_value = 0.001, .has_ci = true};
  r.p_adjusted = 0.002;
  r.verdict = stats::verdict::slower;
  a.rows = {r};
  return a;
}

TEST(command_output, the_verdict_row_is_one_line_for_every_table) {
  const auto a = slow_analysis();
  EXPECT_EQ(verdict_row_text("total_s", a.rows[0], false),
            "  total_s                               10.000 ms    13.000 ms   1.300×  [1.280, 1.320]      SLOWER\n");
}

TEST(command_output, a_comparison_on_the_terminal_and_in_json) {
  const run_plan plan = two_arms();
  const analysis_result a = slow_analysis();
  comparison_result in{"r-1", plan, a, nullptr, 10, false, false};
  in.lead = {"note: one"};
  in.extra["notes"] = {"note: one"};
  EXPECT_EQ(render(in, format::terminal),
            "note: one\n"
            "experiment r-1 · 10 rounds · seed 11 · margin 1.0%\n"
            "\nplanted\n"
            "  metric                                     base    candidate    ratio  95% CI              verdict\n"
            "  total_s                               10.000 ms    13.000 ms   1.300×  [1.280, 1.320]      SLOWER\n");
  const auto j = nlohmann::json::parse(render(in, format::json));
  EXPECT_EQ(j["experiment"], "r-1");
  EXPECT_EQ(j["baseline"], "base");
  EXPECT_EQ(j["notes"], nlohmann::json({"note: one"}));
  ASSERT_EQ(j["verdicts"].size(), 1u);
  EXPECT_EQ(j["verdicts"][0]["verdict"], "slower");
  EXPECT_NEAR(j["verdicts"][0]["ratio"].get<double>(), 1.3, 1e-12);
  EXPECT_EQ(j["rounds"], 10);
  EXPECT_EQ(j["arms"][1]["variant"], "SLOW");
  EXPECT_THROW(render(in, format::markdown), std::invalid_argument);
}

TEST(command_output, an_unpaired_comparison_follows_one_variant) {
  const analysis_result a = slow_analysis();
  const unpaired_result u{"SLOW", "r-1", "r-2", a};
  EXPECT_EQ(render(u, format::terminal),
            "SLOW in r-1 (before) vs r-2 (after), unpaired (Welch on log values, Holm across the metrics)\n"
            "  metric                                   before        after    ratio  95% CI              verdict\n"
            "  planted.total_s                       10.000 ms    13.000 ms   1.300×  [1.280, 1.320]      SLOWER\n");
  const auto j = nlohmann::json::parse(render(u, format::json));
  EXPECT_EQ(j["experiment"], "r-2");
  EXPECT_EQ(j["baseline"], "r-1");
  EXPECT_EQ(j["variant"], "SLOW");
  EXPECT_EQ(j["paired"], false);
  EXPECT_EQ(j["verdicts"][0]["verdict"], "slower");
}

TEST(command_output, a_matrix_shows_its_notes_verdicts_and_effects) {
  const run_plan plan = two_arms();
  const analysis_result a = slow_analysis();
  matrix_result m{comparison_result{"m-1", plan, a, nullptr, 6, false, false}};
  m.kind = "matrix";
  m.design = {{"kind", "full"}};
  m.skipped = nlohmann::json::array();
  m.effects = {{"planted.total_s", {{"SLOW", 0.26}}}};
  m.effects_tables = "effects on planted.total_s\n  SLOW +30%";
  m.runs = 24;
  m.notes = {"warning: a warning", "a note"};
  const std::string text = render(m, format::terminal);
  EXPECT_EQ(text.substr(0, text.find("experiment m-1")), "warning: a warning\nnote: a note\n");
  EXPECT_NE(text.find("  total_s                               10.000 ms    13.000 ms   1.300×"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("SLOWER\neffects on planted.total_s\n  SLOW +30%\n")) << text;
  const auto j = nlohmann::json::parse(render(m, format::json));
  EXPECT_EQ(j["experiment"], "m-1");
  EXPECT_EQ(j["kind"], "matrix");
  EXPECT_EQ(j["shard"], nlohmann::json({{"index", 0}, {"count", 1}}));
  EXPECT_EQ(j["effects"]["planted.total_s"]["SLOW"], 0.26);
  EXPECT_EQ(j["runs"], 24);
  EXPECT_EQ(j["notes"].size(), 2u);
  EXPECT_EQ(j["verdicts"][0]["variant"], "SLOW");
}

TEST(command_output, a_stored_verdict_as_show_prints_it) {
  db::verdict_record v;
  v.variant = "SLOW";
  v.metric = "planted.total_s";
  v.n = 10;
  v.ratio = 1.3;
  v.ci_low = 1.28;
  v.ci_high = 1.32;
  v.verdict = db::verdict_kind::slower;
  EXPECT_EQ(stored_verdict_text(v),
            "  verdict SLOW             planted.total_s                    n=10  ratio 1.3000 [1.2800, 1.3200] SLOWER\n");
  v.ratio.reset();
  v.ci_low.reset();
  v.ci_high.reset();
  v.verdict = db::verdict_kind::inconclusive;
  EXPECT_EQ(stored_verdict_text(v), "  verdict SLOW             planted.total_s                    n=10  ratio — [—, —] INCONCLUSIVE\n");
}

TEST(command_output, alerts_list_their_metrics_and_last_triage) {
  db::alert_record a;
  a.id = 3;
  a.source = db::alert_source::pr;
  a.subject = "slow";
  a.benchmark = "planted";
  a.change = "b..h";
  a.state = db::alert_state::acknowledged;
  a.metrics = {{"planted.total_s", 2.5, 2.0, 3.0, std::nullopt, std::nullopt, 1}};
  a.events = {{{}, std::nullopt, db::alert_state::new_, "opened"}, {{}, db::alert_state::new_, db::alert_state::acknowledged, "seen"}};
  EXPECT_EQ(render(alert_list{{a}, "open"}, format::terminal),
            "#3 [acknowledged] pr slow · planted · change b..h · opened 1970-01-01T00:00:00\n"
            "    planted.total_s              2.500× [2.000, 3.000]  seen 1×\n"
            "    last: acknowledged — seen\n");
  EXPECT_EQ(render(alert_list{{}, "open"}, format::terminal), "no open alerts (--all lists the closed ones too)\n");
  EXPECT_EQ(render(alert_list{{}, "new"}, format::terminal), "no new alerts\n");
  const auto j = nlohmann::json::parse(render(alert_list{{a}, "open"}, format::json));
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0], alert_json(a));
  EXPECT_EQ(render(alert_triaged{a}, format::terminal), "alert #3 is now acknowledged\n");
  EXPECT_EQ(nlohmann::json::parse(render(alert_triaged{a}, format::json)), alert_json(a));
}

}  // namespace
}  // namespace abtest::report
