// scripts/nightly.sh end to end on simulated nights (design §12 scenarios): twelve nights, toggle A1
// 8% slower from night 7 — the report is written, the step is flagged at night 7, the exit code is 1;
// the same job over clean nights exits 0; with the canary (--canary), a machine that gets 10% slower
// for every build from night 7 is not a regression, while A1's step still is.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// One night's scenario: its own noise seed, A1's effect planted from `step_from` on (until
// `step_until`, excluded), and the machine (every build alike: base is what the simulator scales)
// 10% slower from `drift_from` on.
fs::path scenario(const fs::path& dir, int night, int step_from, int drift_from = 99, const std::string& metric = "proof.total_s",
                  double step = 0.08, int step_until = 999) {
  const auto path = dir / ("night-" + std::to_string(night) + ".json");
  const double a1 = night >= step_from && night < step_until ? step : 0.0, base = night >= drift_from ? 11.0 : 10.0;
  std::ofstream(path) << "{\"toggles\": [{\"id\": \"A1\"}], \"seed\": " << 100 + night
                      << ", \"metrics\": {\"" << metric << "\": {\"base\": " << base
                      << ", \"noise_cv\": 0.01, \"effects\": {\"A1\": " << a1 << "}}}}\n";
  return path;
}

int nightly(const fs::path& dir, const fs::path& scenario_file, const fs::path& out, const std::string& extra = "") {
  const std::string cmd = "ABTEST=" ABTEST_BINARY " " ABTEST_NIGHTLY_SCRIPT " --db " + (dir / "results.db").string() +
                          " --simulate " + scenario_file.string() + " --rounds 4 --out " + out.string() + " " + extra + " >>" +
                          (dir / "log.txt").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class nightly_job : public ::testing::Test {
 protected:
  void SetUp() override {
    char templ[] = "/tmp/abtest-nightly-XXXXXX";
    ASSERT_NE(mkdtemp(templ), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
    else std::printf("kept %s (log.txt has the job's output)\n", dir_.c_str());
  }
  fs::path dir_;
};

TEST_F(nightly_job, planted_step_is_flagged_with_a_report_and_exit_code) {
  int last = -1;
  for (int night = 1; night <= 12; ++night) last = nightly(dir_, scenario(dir_, night, 7), dir_ / ("out-" + std::to_string(night)));
  EXPECT_EQ(last, 1) << "a slower change point in state new must fail the job";
  const auto out = dir_ / "out-12";
  ASSERT_TRUE(fs::exists(out / "report.md"));
  EXPECT_TRUE(fs::exists(out / "report.json"));
  EXPECT_TRUE(fs::exists(out / "report.html"));
  const auto md = read(out / "report.md");
  EXPECT_NE(md.find("## Change points"), std::string::npos) << md;
  EXPECT_NE(md.find("| A1 | proof.total_s |"), std::string::npos) << md;
  const auto history = read(out / "history.json");
  EXPECT_NE(history.find("\"changepoints\""), std::string::npos);
}

TEST_F(nightly_job, clean_nights_pass) {
  int last = -1;
  for (int night = 1; night <= 8; ++night) last = nightly(dir_, scenario(dir_, night, 99), dir_ / "out");
  EXPECT_EQ(last, 0) << read(dir_ / "out" / "history.json");
  EXPECT_TRUE(fs::exists(dir_ / "out" / "report.md"));
}

// A rate is better higher: its rise is an improvement and passes, its fall is the regression.
TEST_F(nightly_job, a_rate_regresses_when_it_falls_not_when_it_rises) {
  const std::string rate = "synth.synthesis_constraints_per_s";
  int last = -1;
  // Seeded nights: a clean series (base) can raise a false CUSUM alarm by chance, and this test is
  // about the direction, not that rate.
  const auto seed = [](int night) { return "--seed " + std::to_string(500 + night); };
  for (int night = 1; night <= 12; ++night)
    last = nightly(dir_ / "", scenario(dir_, night, 7, 99, rate, 0.08), dir_ / ("up-" + std::to_string(night)), seed(night));
  EXPECT_EQ(last, 0) << read(dir_ / "up-12" / "history.json");
  fs::create_directories(dir_ / "down");
  for (int night = 1; night <= 12; ++night)
    last = nightly(dir_ / "down", scenario(dir_ / "down", night, 7, 99, rate, -0.08), dir_ / ("down-" + std::to_string(night)),
                   seed(night));
  EXPECT_EQ(last, 1) << read(dir_ / "down-12" / "history.json");
}

TEST_F(nightly_job, the_canary_cancels_a_slower_machine) {
  // Without the canary the machine's step reads as a regression of every variant …
  fs::create_directories(dir_ / "raw");
  int last = -1;
  for (int night = 1; night <= 12; ++night) last = nightly(dir_ / "raw", scenario(dir_, night, 99, 7), dir_ / "raw" / "out");
  EXPECT_EQ(last, 1) << read(dir_ / "raw" / "out" / "history.json");
  // … with it, each night is divided by the frozen build measured the same night: nothing moved.
  fs::create_directories(dir_ / "canary");
  for (int night = 1; night <= 12; ++night)
    last = nightly(dir_ / "canary", scenario(dir_, night, 99, 7), dir_ / "canary" / "out", "--canary frozen");
  const auto history = read(dir_ / "canary" / "out" / "history.json");
  EXPECT_EQ(last, 0) << history;
  EXPECT_NE(history.find("\"normalized_by\": \"canary\""), std::string::npos) << history;
  EXPECT_EQ(history.find("\"variant\": \"canary\""), std::string::npos) << "the canary is the yardstick, not a series";
  // The matrix recorded the canary as an arm of every night.
  const std::string q = ABTEST_BINARY " --db " + (dir_ / "canary" / "results.db").string() +
                        " query --format csv \"SELECT 'nights=' || count(DISTINCT experiment_id) FROM arm WHERE variant = 'canary'\"";
  FILE* p = ::popen(q.c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[256] = {};
  std::string out;
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  ::pclose(p);
  EXPECT_NE(out.find("nights=12"), std::string::npos) << out;
}

TEST_F(nightly_job, the_canary_keeps_a_change_in_the_code) {
  fs::create_directories(dir_ / "c");
  int last = -1;
  for (int night = 1; night <= 12; ++night) last = nightly(dir_ / "c", scenario(dir_, night, 7), dir_ / "c" / "out", "--canary frozen");
  EXPECT_EQ(last, 1) << read(dir_ / "c" / "out" / "history.json");
  EXPECT_NE(read(dir_ / "c" / "out" / "report.md").find("| A1 | proof.total_s |"), std::string::npos);
}

// Alerts (design §9.1): a confirmed change point opens an alert; once the metric is back, a later night
// closes it as fixed and the job passes again.
TEST_F(nightly_job, an_alert_opens_on_a_confirmed_step_and_closes_when_it_is_undone) {
  const auto alerts = [&](const std::string& extra) {
    const std::string q = ABTEST_BINARY " --db " + (dir_ / "results.db").string() + " --json alerts " + extra + " 2>&1";
    FILE* p = ::popen(q.c_str(), "r");
    std::string out;
    char buf[4096];
    for (std::size_t n; p && (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    if (p) ::pclose(p);
    return out;
  };
  std::vector<int> exits;
  int opened_on = 0;
  for (int night = 1; night <= 16; ++night) {
    exits.push_back(nightly(dir_, scenario(dir_, night, 5, 99, "proof.total_s", 0.08, 10), dir_ / "out", "--seed " + std::to_string(700 + night)));
    if (!opened_on && alerts("").find("\"state\": \"new\"") != std::string::npos) opened_on = night;
  }
  const auto history = read(dir_ / "out" / "history.json");
  EXPECT_GE(opened_on, 6) << "no alert before the step";
  EXPECT_LE(opened_on, 9) << "the alert opens while the step lasts (nights 5-9)\n" << history;
  EXPECT_EQ(exits[static_cast<std::size_t>(opened_on - 1)], 1) << "the night that opens an alert fails";
  const std::string all = alerts("--all");
  EXPECT_EQ(alerts("").find("\"id\""), std::string::npos) << "no open alert at the end:\n" << all;
  EXPECT_NE(all.find("\"state\": \"fixed\""), std::string::npos) << all;
  EXPECT_NE(all.find("back to the old level"), std::string::npos) << all;
  EXPECT_NE(all.find("\"subject\": \"A1\""), std::string::npos) << all;
  EXPECT_EQ(exits.back(), 0) << "a fixed alert no longer fails the night\n" << history;
}

}  // namespace
