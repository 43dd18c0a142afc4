// `abtest history`'s result rendered: the series line, a change point with its A/B and alert, the
// alerts fixed and still open on the terminal; the --json document's keys and values.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "db/time_text.hpp"
#include "harness/report/history_output.hpp"

namespace abtest::report {
namespace {

// A1 8% slower from its third night, confirmed by the A/B, its alert new; an older alert fixed.
history_result stepped() {
  history_series s;
  s.variant = "A1";
  s.metric = "proof.total_s";
  s.normalized_by = "canary";
  s.outliers = {1};
  s.alarm = "slower";
  s.cusum_upper = 5.5;
  s.cusum_lower = -0.25;
  s.nights = {{"n-1", {"n-1"}, 10.0, 0.0}, {"n-2", {"n-2", "n-2b"}, 10.1, 0.01}, {"n-3", {"n-3"}, 10.8, 0.077}};
  history_changepoint cp;
  cp.id = 4;
  cp.experiment = "n-3";
  cp.at = db::parse_utc("2026-01-03T02:00:00Z");
  cp.magnitude = 0.08;
  cp.p_value = 0.0001234;
  cp.state = "new";
  cp.confirm = history_confirmation{"n-2", "n-3", "slower", "r-9", "", 1.0812, 1.07, 1.09, 2};
  cp.alert = history_alert{2, db::alert_state::new_};
  s.changepoints = {cp};
  history_result r;
  r.method = "e-divisive";
  r.series = {s};
  r.alerts_fixed = {{1, "B1", "back to the old level on the last 2 nights"}};
  r.open_alerts = 1;
  r.regression = true;
  return r;
}

TEST(history_output, a_confirmed_step_on_the_terminal) {
  const std::string at = db::format_utc(db::parse_utc("2026-01-03T02:00:00Z"));
  EXPECT_EQ(render(stepped(), format::terminal),
            "A1 proof.total_s: 3 nights (÷ canary), 1 outliers screened, latest night: CUSUM alarm, slower\n"
            "  change point #4 at n-3 (" + at + "): +8.00%  p=0.00012  [new]\n"
            "    A/B n-2 vs n-3: slower, ratio 1.0812 — experiment r-9\n"
            "    alert #2 [new]\n"
            "alert #1 (B1) is fixed: back to the old level on the last 2 nights\n"
            "1 open alert — `abtest alerts` lists them\n");
}

TEST(history_output, an_ab_that_could_not_run_says_why) {
  auto r = stepped();
  r.series[0].changepoints[0].confirm = history_confirmation{"n-2", "n-3", "", "", "the build folder moved on", {}, {}, {}, {}};
  r.series[0].changepoints[0].alert.reset();
  r.alerts_fixed.clear();
  r.open_alerts = 2;
  r.series[0].normalized_by.clear();
  r.series[0].alarm = "none";
  const std::string text = render(r, format::terminal);
  EXPECT_NE(text.find("3 nights, 1 outliers screened, latest night: in control\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    A/B n-2 vs n-3 not run: the build folder moved on\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("alert #"), std::string::npos) << text;
  EXPECT_NE(text.find("2 open alerts — "), std::string::npos) << text;
}

TEST(history_output, the_json_document) {
  const auto j = nlohmann::json::parse(render(stepped(), format::json));
  EXPECT_EQ(j["method"], "e-divisive");
  EXPECT_EQ(j["alerts_fixed"], nlohmann::json::array({1}));
  const auto& s = j["series"][0];
  EXPECT_EQ(s["variant"], "A1");
  EXPECT_EQ(s["better"], "lower");
  EXPECT_EQ(s["nights"], 3);
  EXPECT_EQ(s["normalized_by"], "canary");
  EXPECT_EQ(s["outliers"], nlohmann::json::array({1}));
  EXPECT_EQ(s["cusum"], nlohmann::json({{"alarm", "slower"}, {"upper", 5.5}, {"lower", -0.25}}));
  EXPECT_FALSE(s["series"][0].contains("experiments")) << "a night of one experiment names none";
  EXPECT_EQ(s["series"][1]["experiments"], nlohmann::json::array({"n-2", "n-2b"}));
  const auto& cp = s["changepoints"][0];
  EXPECT_EQ(cp["id"], 4);
  EXPECT_EQ(cp["state"], "new");
  EXPECT_EQ(cp["alert"], nlohmann::json({{"id", 2}, {"state", "new"}}));
  EXPECT_EQ(cp["confirm"]["verdict"], "slower");
  EXPECT_EQ(cp["confirm"]["before"], "n-2");
  EXPECT_EQ(cp["confirm"]["alert"], 2);
  EXPECT_DOUBLE_EQ(cp["confirm"]["ratio"].get<double>(), 1.0812);
}

TEST(history_output, markdown_is_refused) {
  EXPECT_THROW(render(stepped(), format::markdown), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::report
