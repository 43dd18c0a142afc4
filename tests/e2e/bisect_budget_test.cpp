// abtest bisect --budget-s on a scenario whose configurations differ in run time and noise (design §7):
// the search ends with what it decided, reported and stored like a finished one.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

const fs::path regex_features = fs::path(ABTEST_SOURCE_DIR) / "tests" / "scenarios" / "regex_features.json";

// 100 s of modeled runs: the overall A/B (~37 s) and the matrix's first two batches (~19 s a round),
// then no more. The two big features are decided by then; CACHE (no effect) is not.
TEST(bisect_budget, a_budget_ends_the_search_with_what_it_decided) {
  scratch dir("bisect-budget");
  const std::string db = (dir.path() / "r.db").string();
  const auto r = run_abtest({"--json", "--db", db, "bisect", "--simulate", regex_features.string(), "--seed", "11", "--budget-s", "100"});
  ASSERT_EQ(r.code, 1) << "a regression with culprits exits 1, stopped or not\n" << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["stopped"], "budget");
  const auto found = culprit_sets(j);
  EXPECT_TRUE(found.count({"NO_DFA"})) << j.dump(2);
  EXPECT_TRUE(found.count({"NO_LIT"})) << j.dump(2);
  ASSERT_FALSE(j["undecided"].empty()) << j.dump(2);
  for (const auto& u : j["undecided"]) {
    EXPECT_LE(u["ci_low"].get<double>(), u["effect"].get<double>());
    EXPECT_GE(u["ci_high"].get<double>(), u["effect"].get<double>());
    EXPECT_GT(u["ci_high"].get<double>() - u["ci_low"].get<double>(), 0.0);
  }
  for (const auto& c : j["culprits"]) EXPECT_EQ(c["support"], "matrix") << "decided by the matrix, not confirmed again";
  EXPECT_GT(j["run_seconds"].get<double>(), 0.0);

  // Stored like a finished search: complete, its decided terms as effects, and its last step saying
  // what it left undecided.
  const std::string id = j["experiment"].get<std::string>();
  const auto q = run_abtest({"--db", db, "query", "--format", "json",
                             "SELECT (SELECT status FROM experiment WHERE id = '" + id + "') AS status, "
                             "(SELECT count(*) FROM effect WHERE experiment_id = '" + id + "' AND role = 'culprit') AS culprits, "
                             "(SELECT note FROM bisect_step WHERE experiment_id = '" + id + "' ORDER BY step DESC LIMIT 1) AS last"});
  ASSERT_EQ(q.code, 0) << q.err;
  const auto row = json_of(q).at(0);
  EXPECT_EQ(row["status"], "complete");
  EXPECT_GE(row["culprits"].get<int>(), 2);
  EXPECT_EQ(row["last"].get<std::string>().rfind("stopped by --budget-s after ", 0), 0u) << row.dump();
  EXPECT_NE(row["last"].get<std::string>().find("undecided "), std::string::npos) << row.dump();

  // Without a budget the same seed runs on to decide everything.
  const auto full = run_abtest({"--json", "--db", db, "bisect", "--simulate", regex_features.string(), "--seed", "11"});
  const auto f = json_of(full);
  EXPECT_TRUE(f["stopped"].is_null());
  EXPECT_TRUE(f["undecided"].empty());
  EXPECT_GT(f["runs"].get<int>(), j["runs"].get<int>());
}

// The terminal says it too, and the step lines name what the matrix decided and the worst case left.
TEST(bisect_budget, the_terminal_says_what_is_undecided_and_the_time_left) {
  scratch dir("bisect-budget-text");
  const auto r = run_abtest({"--db", (dir.path() / "r.db").string(), "bisect", "--simulate", regex_features.string(), "--seed",
                             "11", "--budget-s", "100"});
  ASSERT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("undecided: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stopped by --budget-s after "), std::string::npos) << r.out;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("factorial matrix of 16 configurations · culprits so far: none · ≤ "), std::string::npos) << all;
  EXPECT_NE(all.find("decided: NO_DFA "), std::string::npos) << all;
  EXPECT_NE(all.find(" min left"), std::string::npos) << all;
}

}  // namespace
}  // namespace abtest::e2e
