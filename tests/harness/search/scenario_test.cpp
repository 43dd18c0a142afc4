// Tests of the scenario parser (contract of design §12, errors) and of the simulator's model.
#include "harness/search/scenario.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "harness/stats/descriptive.hpp"

namespace abtest::search {
namespace {

using nlohmann::json;

const json example = json::parse(R"({
  "toggles": [{"id": "A1", "levels": ["0", "1", "2", "4"], "on": "4"}, {"id": "A2"}, {"id": "B1"}],
  "metrics": {
    "proof.total_s": {"base": 88.9, "noise_cv": 0.02,
                      "effects": {"A1=4": 0.062, "B1": 0.064, "A1=4*A2": 0.03},
                      "outliers": {"rate": 0.02, "scale": 1.5}, "drift_per_round": 0.0}
  },
  "seed": 7,
  "expect": {"culprits": ["A1=4", "B1"]}
})");

std::string error_of(const json& j) {
  try {
    parse_scenario(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(scenario, parses_the_design_example) {
  const scenario s = parse_scenario(example);
  ASSERT_EQ(s.toggles.size(), 3u);
  EXPECT_EQ(s.toggles[0].on_level(), "4");
  EXPECT_EQ(s.toggles[1].levels, (std::vector<std::string>{"OFF", "ON"}));
  EXPECT_EQ(s.seed, 7u);
  const metric_model& m = s.metrics.at("proof.total_s");
  EXPECT_DOUBLE_EQ(m.base, 88.9);
  ASSERT_EQ(m.effects.size(), 3u);
  EXPECT_DOUBLE_EQ(m.outlier_scale, 1.5);
  EXPECT_EQ(s.document["expect"]["culprits"][1], "B1");  // extra top-level keys pass through, unread
}

TEST(scenario, rejects_bad_input_with_actionable_errors) {
  json j = example;
  j["metrics"]["proof.total_s"]["noise"] = 0.02;
  EXPECT_NE(error_of(j).find("unknown key 'noise' in metrics.proof.total_s"), std::string::npos) << error_of(j);
  j = example;
  j["metrics"]["proof.total_s"]["effects"]["Z9"] = 0.1;
  EXPECT_NE(error_of(j).find("unknown toggle 'Z9'"), std::string::npos);
  j = example;
  j["metrics"]["proof.total_s"]["effects"]["A1"] = 0.1;
  EXPECT_NE(error_of(j).find("write A1=<level>"), std::string::npos);
  j = example;
  j["metrics"]["proof.total_s"]["effects"]["A1=0"] = 0.1;
  EXPECT_NE(error_of(j).find("off level"), std::string::npos);
  j = example;
  j["metrics"]["proof.total_s"]["effects"]["B1*B1"] = 0.1;
  EXPECT_NE(error_of(j).find("repeats toggle B1"), std::string::npos);
  j = example;
  j["toggles"][1]["option"] = "ABTEST_A2_PRESIZE";
  EXPECT_NE(error_of(j).find("'option'"), std::string::npos);
  j = example;
  j["metrics"]["proof.total_s"].erase("base");
  EXPECT_NE(error_of(j).find("has no 'base'"), std::string::npos);
  j = example;
  j["metrics"]["proof.total_s"]["outliers"]["rate"] = 2;
  EXPECT_NE(error_of(j).find("outside [0, 1]"), std::string::npos);
  EXPECT_NE(error_of(json::array()).find("not a JSON object"), std::string::npos);
  for (const std::string& e : {error_of(j), error_of(json::array())}) {
    EXPECT_EQ(e.rfind("error: ", 0), 0u);
    EXPECT_NE(e.find(" — "), std::string::npos);
  }
}

TEST(scenario, load_reports_the_file) {
  const std::string path = testing::TempDir() + "/broken_scenario.json";
  std::ofstream(path) << "{\"toggles\": [";
  try {
    load_scenario(path);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("broken_scenario.json"), std::string::npos);
  }
  EXPECT_THROW(load_scenario(testing::TempDir() + "/no_such_file.json"), std::invalid_argument);
}

TEST(simulate, noiseless_values_follow_the_effects) {
  json j = example;
  j["metrics"]["proof.total_s"]["noise_cv"] = 0.0;
  j["metrics"]["proof.total_s"].erase("outliers");
  j["metrics"]["proof.total_s"]["drift_per_round"] = 0.01;
  const scenario s = parse_scenario(j);
  std::mt19937_64 rng(1);
  EXPECT_NEAR(simulate(s, {}, "proof.total_s", 0, rng), 88.9, 1e-9);
  EXPECT_NEAR(simulate(s, {{"A1", "4"}, {"B1", "ON"}}, "proof.total_s", 0, rng), 88.9 * std::exp(0.126), 1e-9);
  // The interaction only when both are on; A1 at another level has no effect.
  EXPECT_NEAR(simulate(s, {{"A1", "4"}, {"A2", "ON"}}, "proof.total_s", 0, rng), 88.9 * std::exp(0.092), 1e-9);
  EXPECT_NEAR(simulate(s, {{"A1", "2"}, {"A2", "ON"}}, "proof.total_s", 0, rng), 88.9, 1e-9);
  EXPECT_NEAR(simulate(s, {}, "proof.total_s", 3, rng), 88.9 * std::pow(1.01, 3), 1e-9);
  EXPECT_THROW(simulate(s, {}, "proof.gpu_s", 0, rng), std::invalid_argument);
  EXPECT_THROW(simulate(s, {{"Q", "ON"}}, "proof.total_s", 0, rng), std::invalid_argument);
}

TEST(simulate, noise_and_outliers_have_the_stated_size) {
  const std::uint64_t seed = 99;
  const scenario s = parse_scenario(example);
  std::mt19937_64 rng(seed);
  std::vector<double> logs;
  int outliers = 0;
  for (int i = 0; i < 20000; ++i) {
    const double v = simulate(s, {}, "proof.total_s", 0, rng);
    if (v > 88.9 * 1.25) ++outliers;  // 1.5× with a 2% noise: far above 12 sd of the clean samples
    else logs.push_back(std::log(v));
  }
  EXPECT_NEAR(outliers / 20000.0, 0.02, 0.005) << "seed " << seed;
  EXPECT_NEAR(stats::sd(logs), std::log1p(0.02), 0.001) << "seed " << seed;
  EXPECT_NEAR(stats::mean(logs), std::log(88.9), 0.001) << "seed " << seed;
}

// Noise per configuration (design §7): a configuration's noise and run seconds follow its toggles (noise_effects, run_s); a
// scenario without them draws exactly what it drew and has no run seconds.
TEST(simulate, noise_and_run_seconds_per_configuration) {
  json j = example;
  j["metrics"]["proof.total_s"].erase("outliers");
  j["metrics"]["proof.total_s"]["noise_effects"] = {{"B1", std::log(4.0)}};
  j["metrics"]["proof.total_s"]["run_s"] = {{"base", 0.03}, {"effects", {{"B1", std::log(100.0)}}}};
  const scenario s = parse_scenario(j);
  EXPECT_NEAR(simulated_run_s(s, {}, "proof.total_s"), 0.03, 1e-12);
  EXPECT_NEAR(simulated_run_s(s, {{"B1", "ON"}}, "proof.total_s"), 3.0, 1e-9);
  EXPECT_TRUE(std::isnan(simulated_run_s(parse_scenario(example), {}, "proof.total_s")));
  const std::uint64_t seed = 38;
  std::mt19937_64 rng(seed);
  std::vector<double> quiet, noisy;
  for (int i = 0; i < 20000; ++i) {
    quiet.push_back(std::log(simulate(s, {}, "proof.total_s", 0, rng)));
    noisy.push_back(std::log(simulate(s, {{"B1", "ON"}}, "proof.total_s", 0, rng)));
  }
  EXPECT_NEAR(stats::sd(quiet), std::log1p(0.02), 0.001) << "seed " << seed;
  EXPECT_NEAR(stats::sd(noisy), 4.0 * std::log1p(0.02), 0.004) << "seed " << seed;
  // Without the new keys the draws are the old ones, value for value.
  json plain = example;
  plain["metrics"]["proof.total_s"].erase("outliers");
  const scenario old = parse_scenario(plain);
  std::mt19937_64 a(seed), b(seed);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(simulate(old, {}, "proof.total_s", 0, a), simulate(s, {}, "proof.total_s", 0, b));
}

TEST(scenario, rejects_bad_run_seconds_and_noise_effects) {
  json j = example;
  j["metrics"]["proof.total_s"]["run_s"] = {{"base", 0.0}};
  EXPECT_NE(error_of(j).find("run_s.base must be positive"), std::string::npos) << error_of(j);
  j["metrics"]["proof.total_s"]["run_s"] = {{"base", 1.0}, {"effects", {{"Z9", 1.0}}}};
  EXPECT_NE(error_of(j).find("unknown toggle 'Z9'"), std::string::npos) << error_of(j);
  j["metrics"]["proof.total_s"]["run_s"] = 0.5;
  EXPECT_NE(error_of(j).find("run_s is not an object"), std::string::npos) << error_of(j);
  j = example;
  j["metrics"]["proof.total_s"]["noise_effects"] = {{"B1", "big"}};
  EXPECT_NE(error_of(j).find("noise_effects.B1 is not a number"), std::string::npos) << error_of(j);
  EXPECT_EQ(error_of(j).rfind("error: ", 0), 0u);
}

}  // namespace
}  // namespace abtest::search
