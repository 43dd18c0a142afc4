// abtest bisect on real builds of the planted fixture: the planted culprit, the planted pair, and the
// toggle that does not compile (skipped). planted.work_count is exact, so the answer is deterministic.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

TEST(bisect_fixture, names_the_culprit_and_the_pair_and_skips_broken) {
  use_parent_launcher();
  const fs::path manifest = planted_copy(fs::path(ABTEST_E2E_WORK_DIR) / "planted");
  scratch dir("bisect-fixture");
  const auto r = run_abtest({"--json", "--manifest", manifest.string(), "--db", (dir.path() / "r.db").string(), "bisect",
                             "--to", "SLOW+PAIR1+PAIR2+BROKEN+NULL", "--metric", "planted.work_count", "--rounds", "3",
                             "--seed", "5"});
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
}

}  // namespace
}  // namespace abtest::e2e
