// SIGKILL of `abtest run` on the planted fixture with real builds, after some samples are
// recorded: the database passes its integrity check, the experiment is listed as incomplete, and
// `--resume` records every missing slot and completes it.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"

namespace abtest::test {
namespace {

TEST(run_kill, sigkill_mid_run_leaves_a_sound_database_that_resume_completes) {
  temp_dir tmp("e2e-kill");
  const fs::path db = tmp / "results.db";
  constexpr int rounds = 12, warmups = 1, arms = 2;
  const auto child = spawn_cli({"--manifest", planted_manifest().string(), "--db", db.string(), "run", "--toggle", "SLOW",
                                "--bench", "planted", "--rounds", std::to_string(rounds), "--warmups", std::to_string(warmups),
                                "--seed", "5", "-j", "2", "-q"},
                               tmp.path());
  // Builds come first (warm when the fixture tests ran before); then wait for a few samples.
  std::int64_t seen = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    ASSERT_EQ(::waitpid(child.pid, &status, WNOHANG), 0) << "abtest ended before it was killed:\n" << read_text(child.err_path);
    if (fs::exists(db) && (seen = query_int(db, "SELECT count(*) FROM sample")) >= 4) break;
    sleep_us(50'000);
  }
  ASSERT_GE(seen, 4) << "no samples recorded in time";
  ::kill(child.pid, SIGKILL);
  const auto killed = wait_cli(child);
  ASSERT_EQ(killed.signal, SIGKILL);

  std::string why;
  EXPECT_TRUE(db_check_passes(db, &why)) << why;
  const auto recorded = query_int(db, "SELECT count(*) FROM sample");
  EXPECT_GE(recorded, seen) << "a committed sample was lost";
  EXPECT_LT(recorded, arms * (rounds + warmups)) << "killed too late to test a resume";

  const auto listed = run_cli({"--db", db.string(), "--json", "list"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const auto list = json_of(listed);
  ASSERT_EQ(list.size(), 1u) << listed.out;
  EXPECT_EQ(list[0]["status"], "incomplete");
  const std::string id = list[0]["experiment"];

  const auto resumed = run_cli({"--db", db.string(), "--json", "run", "--resume", id});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM sample"), arms * (rounds + warmups));
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM (SELECT DISTINCT arm_idx, round, warmup, benchmark FROM sample)"),
            arms * (rounds + warmups))
      << "each slot exactly once";
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM experiment WHERE status = 'complete'"), 1);
  // The report is kept in a variable: a range-for over `json_of(resumed)["verdicts"]` walks a member
  // of a temporary that is destroyed before the loop runs (C++20), which ASan caught.
  const auto report = json_of(resumed);
  ASSERT_TRUE(report.contains("verdicts")) << resumed.out;
  int checked = 0;
  for (const auto& v : report["verdicts"])
    if (v["metric"] == "planted.work_count") {
      ++checked;
      EXPECT_EQ(v["verdict"], "slower");
      EXPECT_NEAR(v["ratio"].get<double>(), 1.3, 1e-9);
      EXPECT_EQ(v["n"], rounds);
    }
  EXPECT_EQ(checked, 1) << resumed.out;
  EXPECT_TRUE(db_check_passes(db, &why)) << why;
}

}  // namespace
}  // namespace abtest::test
