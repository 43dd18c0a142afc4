// `abtest run` end to end on the planted fixture with real builds: each planted toggle gives its
// documented verdict (exact ratios on planted.work_count, coarse ones on time) and exit code.
#include <gtest/gtest.h>

#include <string>

#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"
#include "tests/e2e/planted_run.hpp"

namespace abtest::test {
namespace {

TEST(run_fixture, costly_toggle_is_slower_by_exactly_the_planted_work) {
  temp_dir tmp("e2e-slow");
  const auto r = run_planted(tmp, {"--toggle", "SLOW", "--rounds", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json_of(r);
  // design §9 --json contract: these keys must be there.
  for (const char* key : {"experiment", "baseline", "verdicts"}) EXPECT_TRUE(j.contains(key)) << key << "\n" << r.out;
  EXPECT_EQ(j.value("baseline", ""), "base");
  ASSERT_FALSE(j["verdicts"].empty());
  for (const auto& v : j["verdicts"])
    for (const char* key : {"variant", "metric", "n", "baseline_median", "candidate_median", "ratio", "ci_low", "ci_high",
                            "p_value", "p_adjusted", "verdict"})
      EXPECT_TRUE(v.contains(key)) << key << " missing in " << v.dump();

  const auto* work = find_verdict(j, "SLOW", "planted.work_count");
  ASSERT_NE(work, nullptr) << r.out;
  EXPECT_EQ((*work)["verdict"], "slower");
  EXPECT_NEAR((*work)["ratio"].get<double>(), 1.3, 1e-9);
  EXPECT_NEAR((*work)["baseline_median"].get<double>(), 80000, 1e-6);
  EXPECT_EQ((*work)["n"], 4);

  // Time follows the work only roughly: a rep is ~10 ms, and on a loaded 2-core host one preemption
  // moves it by more than the planted 30% (a (1.1, 2.0) bound on the ratio failed there once). The
  // exact check is work_count above; for time only the direction must not be contradicted — a
  // FASTER verdict would need 4 rounds of consistent evidence against the planted work.
  const auto* time = find_verdict(j, "SLOW", "planted.total_s");
  ASSERT_NE(time, nullptr) << r.out;
  EXPECT_NE((*time)["verdict"], "faster") << time->dump();
  EXPECT_GT((*time)["candidate_median"].get<double>(), 0.0);
}

TEST(run_fixture, null_toggle_is_reported_as_identical_binaries_and_never_slower) {
  temp_dir tmp("e2e-null");
  const auto r = run_planted(tmp, {"--toggle", "NULL", "--rounds", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json_of(r);
  for (const auto& v : j.value("verdicts", nlohmann::json::array())) EXPECT_NE(v["verdict"], "slower") << v.dump();
  EXPECT_NE(r.out.find("identical binaries"), std::string::npos) << r.out;
}

TEST(run_fixture, pair_costs_only_together) {
  temp_dir tmp("e2e-pair");
  const auto r = run_planted(tmp, {"--toggle", "PAIR1", "--variant", "PAIR2", "--variant", "PAIR1+PAIR2", "--rounds", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json_of(r);
  for (const char* alone : {"PAIR1", "PAIR2"}) {
    const auto* v = find_verdict(j, alone, "planted.work_count");
    ASSERT_NE(v, nullptr) << alone << "\n" << r.out;
    EXPECT_NE((*v)["verdict"], "slower") << alone;
    EXPECT_NEAR((*v)["ratio"].get<double>(), 1.0, 1e-12) << alone;
  }
  const auto* both = find_verdict(j, "PAIR1+PAIR2", "planted.work_count");
  ASSERT_NE(both, nullptr) << r.out;
  EXPECT_EQ((*both)["verdict"], "slower");
  EXPECT_NEAR((*both)["ratio"].get<double>(), 1.4, 1e-9);
}

TEST(run_fixture, build_failure_exits_3_with_a_readable_message) {
  temp_dir tmp("e2e-broken");
  const auto r = run_planted(tmp, {"--toggle", "BROKEN", "--rounds", "2"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("BROKEN"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("#error"), std::string::npos) << "the log tail should show the compiler's error\n" << r.err;
}

TEST(run_fixture, crash_records_failed_samples_and_exits_4) {
  temp_dir tmp("e2e-crash");
  const auto r = run_planted(tmp, {"--toggle", "CRASH", "--rounds", "3"});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  const auto db = tmp / "results.db";
  EXPECT_GE(query_int(db, "SELECT count(*) FROM sample s JOIN arm a ON a.experiment_id = s.experiment_id AND a.idx = s.arm_idx "
                          "WHERE a.variant = 'CRASH' AND s.status = 'crashed' AND s.warmup = 0"),
            3);
  EXPECT_GE(query_int(db, "SELECT count(*) FROM sample s JOIN arm a ON a.experiment_id = s.experiment_id AND a.idx = s.arm_idx "
                          "WHERE a.variant = 'base' AND s.status = 'ok' AND s.warmup = 0"),
            3);
}

TEST(run_fixture, digest_change_is_invalid_and_exits_4) {
  temp_dir tmp("e2e-digest");
  const auto r = run_planted(tmp, {"--toggle", "DIGEST", "--rounds", "3"});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  const auto j = json_of(r);
  ASSERT_FALSE(j.value("verdicts", nlohmann::json::array()).empty()) << r.out;
  for (const auto& v : j["verdicts"])
    if (v["variant"] == "DIGEST") {
      EXPECT_EQ(v["verdict"], "invalid") << v.dump();
    }
}

}  // namespace
}  // namespace abtest::test
