// abtest matrix and noise-floor on real builds of the planted fixture (exact work counts).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

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

// Layouts (design §6) in a matrix on real builds: --layouts relinks every configuration K times (the effect on
// the exact work count stays exact whatever the layout, its replicates the layouts), and --counts
// counts each configuration once under Valgrind and explains its moved verdicts.
TEST(matrix_fixture, layouts_and_counts_reach_every_configuration) {
  if (std::system("valgrind --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "valgrind is not installed";
  scratch dir("matrix-evidence");
  const auto r = run_abtest({"--json", "--manifest", manifest().string(), "--db", (dir.path() / "r.db").string(), "matrix",
                             "--toggle", "SLOW", "--toggle", "PAIR1", "--layouts", "2", "--counts", "--rounds", "2", "--metric",
                             "planted.work_count", "--seed", "3"});
  if (r.code == 2 && r.err.find("ld.lld") != std::string::npos) GTEST_SKIP() << "lld is not installed: " << r.err;
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["layouts"], 2);
  ASSERT_EQ(j["effects"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["effects"][0]["rounds"], 2) << "replicates: the layouts";
  std::map<std::string, double> culprits;
  for (const auto& e : j["effects"][0]["effects"])
    if (e["culprit"].get<bool>()) culprits[e["term"].get<std::string>()] = e["effect"].get<double>();
  ASSERT_EQ(culprits.size(), 1u) << j["effects"].dump(2);
  EXPECT_NEAR(culprits["SLOW"], std::log(1.3), 1e-9);

  // One count per configuration and benchmark; SLOW's instructions exactly 30% up in the counted
  // region, and a mechanism block for each configuration whose verdicts moved (those with SLOW).
  const fs::path db = dir.path() / "r.db";
  const std::string id = j["experiment"];
  const auto q = run_abtest({"--db", db.string(), "query", "--format", "json",
                             "SELECT count(*) AS n, count(DISTINCT arm_idx) AS arms, (SELECT json_array_length(config, "
                             "'$.benchmarks') FROM experiment WHERE id = '" + id + "') AS benchmarks FROM counts WHERE counts IS "
                             "NOT NULL AND experiment_id = '" + id + "'"});
  ASSERT_EQ(q.code, 0) << q.err;
  const auto rows = json_of(q);
  EXPECT_EQ(rows[0]["arms"], 4) << "the first layout of each of 4 configurations";
  EXPECT_EQ(rows[0]["n"].get<int>(), 4 * rows[0]["benchmarks"].get<int>()) << "× the benchmarks";
  bool ir = false;
  for (const auto& v : j["verdicts"])
    if (v["variant"] == "SLOW" && v["metric"] == "planted.counts.Ir") {
      ir = true;
      EXPECT_EQ(v["verdict"], "slower");
      EXPECT_NEAR(v["ratio"].get<double>(), 1.3, 0.005);
    }
  EXPECT_TRUE(ir) << j["verdicts"].dump(2);
  std::set<std::string> explained;
  for (const auto& m : j["mechanisms"]) explained.insert(m["candidate"].get<std::string>());
  EXPECT_TRUE(explained.count("SLOW") && explained.count("PAIR1+SLOW")) << j["mechanisms"].dump(2);
  EXPECT_FALSE(explained.count("PAIR1")) << "PAIR1 alone does nothing: no verdict moved, no block";
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
