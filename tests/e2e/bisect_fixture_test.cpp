// abtest bisect on real builds of the planted fixture: the planted culprit, the planted pair, and the
// toggle that does not compile (skipped). planted.work_count is exact, so the answer is deterministic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

TEST(bisect_fixture, names_the_culprit_and_the_pair_and_skips_broken) {
  use_parent_launcher();
  const fs::path manifest = planted_copy(fs::path(ABTEST_E2E_WORK_DIR) / "planted");
  scratch dir("bisect-fixture");
  const auto r = run_abtest({"--json", "--manifest", manifest.string(), "--db", (dir.path() / "r.db").string(), "bisect",
                             "--to", "SLOW+PAIR1+PAIR2+BROKEN+NULL", "--metric", "planted.work_count", "--rounds", "3",
                             "--design", "full", "--seed", "5"});
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["from"], "base");
  EXPECT_EQ(j["to"], "BROKEN+NULL+PAIR1+PAIR2+SLOW");
  EXPECT_EQ(j["verdict"], "slower");
  EXPECT_EQ(culprit_sets(j), (std::set<std::vector<std::string>>{{"SLOW"}, {"PAIR1", "PAIR2"}})) << j.dump(2);
  for (const auto& c : j["culprits"]) {
    const double want = c["toggles"].size() == 1 ? std::log(1.3) : std::log(1.4);  // expected.json
    EXPECT_NEAR(c["effect"].get<double>(), want, 1e-9) << c.dump();
    EXPECT_EQ(c["confirmed"], true);
  }
  EXPECT_EQ(j["skipped"], nlohmann::json::array({"BROKEN"}));
  EXPECT_EQ(j["full_matrix_runs"].get<int>(), 16 * 3) << "SLOW, PAIR1, PAIR2, NULL: 2^4 configurations × 3 rounds";
  EXPECT_EQ(j["rejected"].size(), 0u);
  // The price (design §7), beside the full factorial's at the culprits' precision (whole rounds of 16).
  EXPECT_EQ(j["plan"]["design"], "full 2^4");
  EXPECT_EQ(j["full_factorial"]["builds"].get<int>(), 16);
  EXPECT_EQ(j["full_factorial"]["runs"].get<int>() % 16, 0) << j["full_factorial"];
  EXPECT_GE(j["full_factorial"]["runs"].get<int>(), 32) << j["full_factorial"];
  EXPECT_GE(j["builds"].get<int>(), 16);
}

// Counts (design §6): `bisect --counts` counts each toggle's variants first; LAYOUT (the same instructions, the
// hot loop moved) and NULL (identical binaries) move no count and are not timed, so the factorial runs
// over SLOW, PAIR1 and PAIR2 only; each culprit carries its mechanism block, the pair's counted on
// the configuration with both.
TEST(bisect_fixture, the_counts_screen_times_only_toggles_that_move_a_count) {
  if (std::system("valgrind --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "valgrind is not installed";
  use_parent_launcher();
  const fs::path manifest = planted_copy(fs::path(ABTEST_E2E_WORK_DIR) / "planted");
  scratch dir("bisect-counts");
  const auto r = run_abtest({"--json", "--manifest", manifest.string(), "--db", (dir.path() / "r.db").string(), "bisect",
                             "--to", "SLOW+PAIR1+PAIR2+LAYOUT+NULL", "--metric", "planted.work_count", "--rounds", "2",
                             "--counts", "--design", "full", "--seed", "5"});
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  ASSERT_TRUE(j["counts_screen"].is_object()) << j.dump(2);
  EXPECT_EQ(j["counts_screen"]["not_timed"], nlohmann::json::array({"LAYOUT", "NULL"}));
  EXPECT_EQ(j["method"], "factorial full 2^3") << "SLOW, PAIR1, PAIR2 only";
  EXPECT_TRUE(j["skipped"].empty()) << "the screen's toggles are listed apart";
  EXPECT_EQ(j["full_matrix_runs"].get<int>() % 32, 0) << "weighed against the matrix of all 5 toggles, the screened too";
  EXPECT_EQ(culprit_sets(j), (std::set<std::vector<std::string>>{{"SLOW"}, {"PAIR1", "PAIR2"}})) << j.dump(2);
  for (const auto& c : j["culprits"]) {
    ASSERT_EQ(c["mechanisms"].size(), 1u) << c.dump(2);
    const auto& m = c["mechanisms"][0];
    EXPECT_EQ(m["base"], "base");
    EXPECT_EQ(m["candidate"], c["toggles"].size() == 1 ? "SLOW" : "PAIR1+PAIR2");
    ASSERT_FALSE(m["counts"].empty());
    EXPECT_EQ(m["counts"][0]["name"], "Ir");
    EXPECT_NEAR(m["counts"][0]["relative"].get<double>(), c["toggles"].size() == 1 ? 0.30 : 0.40, 0.001) << m.dump(2);
    ASSERT_FALSE(m["functions"].empty());
    EXPECT_NE(m["functions"][0]["name"].get<std::string>().find("planted::run_rep"), std::string::npos);
  }
}

}  // namespace
}  // namespace abtest::e2e
