// abtest matrix and noise-floor on real builds of the planted fixture (exact work counts).
#include <gtest/gtest.h>

#include <cmath>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

fs::path manifest() {
  use_parent_launcher();
  return planted_copy(fs::path(ABTEST_E2E_WORK_DIR) / "planted");
}

TEST(matrix_fixture, full_design_attributes_slow_and_the_pair) {
  scratch dir("matrix-fixture");
  const auto r = run_abtest({"--json", "--manifest", manifest().string(), "--db", (dir.path() / "r.db").string(), "matrix",
                             "--toggle", "SLOW", "--toggle", "PAIR1", "--toggle", "PAIR2", "--rounds", "3", "--metric",
                             "planted.work_count", "--seed", "3"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["kind"], "matrix");
  ASSERT_EQ(j["effects"].size(), 1u) << j.dump(2);
  std::map<std::string, double> culprits;
  for (const auto& e : j["effects"][0]["effects"])
    if (e["culprit"].get<bool>()) culprits[e["term"].get<std::string>()] = e["effect"].get<double>();
  ASSERT_EQ(culprits.size(), 2u) << j["effects"].dump(2);
  EXPECT_NEAR(culprits["SLOW"], std::log(1.3), 1e-9);
  EXPECT_NEAR(culprits["PAIR1*PAIR2"], std::log(1.4), 1e-9);
  bool all_three = false;
  for (const auto& a : j["effects"][0]["attribution"])
    if (a["variant"] == "PAIR1+PAIR2+SLOW") {
      all_three = true;
      EXPECT_NEAR(a["measured_ratio"].get<double>(), 1.82, 1e-9);  // expected.json
      EXPECT_NEAR(a["model_ratio"].get<double>(), 1.82, 1e-9);
    }
  EXPECT_TRUE(all_three);
}

TEST(matrix_fixture, a_config_that_does_not_build_is_skipped_and_reported) {
  scratch dir("matrix-broken");
  const auto r = run_abtest({"--json", "--manifest", manifest().string(), "--db", (dir.path() / "r.db").string(), "matrix",
                             "--toggle", "SLOW", "--toggle", "BROKEN", "--rounds", "2", "--metric", "planted.work_count"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  std::set<std::string> skipped;
  for (const auto& s : j["skipped"]) skipped.insert(s["variant"].get<std::string>());
  EXPECT_EQ(skipped, (std::set<std::string>{"BROKEN", "BROKEN+SLOW"})) << j.dump(2);
  std::set<std::string> measured;
  for (const auto& v : j["verdicts"]) measured.insert(v["variant"].get<std::string>());
  EXPECT_EQ(measured, (std::set<std::string>{"SLOW"})) << "one verdict per metric, for the one configuration that built";
}

TEST(noise_floor_fixture, a_rebuild_does_not_change_an_exact_count) {
  scratch dir("noise-fixture");
  const auto r = run_abtest({"--json", "--manifest", manifest().string(), "--db", (dir.path() / "r.db").string(),
                             "noise-floor", "--rounds", "3", "--metric", "planted.work_count"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  ASSERT_EQ(j["floors"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["floors"][0]["floor"].get<double>(), 0.0);
  EXPECT_EQ(j["floors"][0]["verdict"], "same");
}

}  // namespace
}  // namespace abtest::e2e
