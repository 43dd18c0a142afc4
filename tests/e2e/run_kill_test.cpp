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

// Ctrl-C during a bisection's matrix (design §7): SIGINT ends the search with what it has decided —
// the overall verdict, whatever terms are decided, the rest listed as undecided — stored and
// reported like a finished search, never an error.
TEST(bisect_interrupt, sigint_in_the_matrix_ends_the_search_with_what_it_decided) {
  temp_dir tmp("e2e-bisect-int");
  const fs::path db = tmp / "results.db";
  const auto child = spawn_cli({"--manifest", planted_manifest().string(), "--db", db.string(), "--json", "bisect", "--to",
                                "SLOW+PAIR1+PAIR2", "--metric", "planted.total_s", "--seed", "5", "-j", "2"},
                               tmp.path());
  // The overall A/B comes first; once the matrix has recorded some samples, interrupt it.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(8);
  bool in_matrix = false;
  std::int64_t at_matrix = -1;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    ASSERT_EQ(::waitpid(child.pid, &status, WNOHANG), 0) << "abtest ended before the interrupt:\n" << read_text(child.err_path);
    if (!in_matrix && read_text(child.err_path).find("factorial matrix") != std::string::npos) {
      in_matrix = true;
      at_matrix = fs::exists(db) ? query_int(db, "SELECT count(*) FROM sample") : 0;
    }
    if (in_matrix && query_int(db, "SELECT count(*) FROM sample") >= at_matrix + 8) break;
    sleep_us(50'000);
  }
  ASSERT_TRUE(in_matrix) << "the matrix never started:\n" << read_text(child.err_path);
  ::kill(child.pid, SIGINT);
  const auto r = wait_cli(child);
  ASSERT_EQ(r.signal, 0) << r.err;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << "a stopped search reports, it does not fail: exit " << r.exit_code << "\n" << r.err;
  const auto j = json_of(r);
  ASSERT_TRUE(j.contains("stopped")) << r.out << r.err;
  EXPECT_EQ(j["stopped"], "interrupted");
  EXPECT_EQ(j["verdict"], "slower") << "the overall A/B was decided before the interrupt";
  const std::string id = j["experiment"].get<std::string>();
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM experiment WHERE id = '" + id + "' AND status = 'complete'"), 1);
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM bisect_step WHERE experiment_id = '" + id +
                              "' AND note LIKE 'stopped by Ctrl-C after %'"), 1);
  std::string why;
  EXPECT_TRUE(db_check_passes(db, &why)) << why;
}

}  // namespace
}  // namespace abtest::test
