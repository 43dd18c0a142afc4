// `abtest run --counts` end to end on the planted fixture: Valgrind counts of the same build are
// identical run to run, a planted toggle that adds work moves Ir by exactly that and its mechanism
// block names the function, --resume keeps stored counts, and a Valgrind failure is reported while
// the timing runs go on. Skipped without Valgrind. The fixture is built by abtest with its own flags,
// never the sanitizers of the asan preset, so Valgrind can run it in the sanitizer job too.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"
#include "tests/e2e/planted_run.hpp"

namespace abtest::test {
namespace {

bool have_valgrind() { return std::system("valgrind --version > /dev/null 2>&1") == 0; }

#define SKIP_WITHOUT_VALGRIND() \
  if (!have_valgrind()) GTEST_SKIP() << "valgrind is not installed (apt-get install valgrind)"

// `abtest run --counts` on planted only, counted on reps=1 units=8000 in planted::run_rep* (the
// fixture's manifest).
std::vector<std::string> counts_run(const temp_dir& tmp, std::vector<std::string> args) {
  std::vector<std::string> all{"--manifest", planted_manifest().string(), "--db", (tmp / "results.db").string(), "--json",
                               "run", "--bench", "planted", "--counts", "--seed", "3", "-j", "2"};
  all.insert(all.end(), args.begin(), args.end());
  return all;
}

std::string query_text(const fs::path& db, const std::string& sql) {
  const auto r = run_cli({"--db", db.string(), "query", "--format", "csv", sql});
  return r.exit_code == 0 ? r.out : "query failed: " + r.err;
}

TEST(run_counts, two_runs_of_the_same_variants_count_identical_instructions) {
  SKIP_WITHOUT_VALGRIND();
  temp_dir tmp("e2e-counts-same");
  for (int i = 0; i < 2; ++i) {
    const auto r = run_cli(counts_run(tmp, {"--toggle", "SLOW", "--rounds", "2"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const fs::path db = tmp / "results.db";
  ASSERT_EQ(query_int(db, "SELECT count(DISTINCT experiment_id) FROM counts WHERE counts IS NOT NULL"), 2);
  for (const char* variant : {"base", "SLOW"}) {
    const std::string where = std::string(" FROM v_count WHERE name = 'Ir' AND variant = '") + variant + "'";
    EXPECT_EQ(query_int(db, "SELECT count(*)" + where), 2) << variant;
    EXPECT_EQ(query_int(db, "SELECT count(DISTINCT value)" + where), 1)
        << variant << ": Ir differs between two runs of one build\n" << query_text(db, "SELECT *" + where);
    EXPECT_GT(query_int(db, "SELECT min(value)" + where), 0) << variant;
  }
  // Counts are their own kind: no sample carries a count metric.
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM metric WHERE name LIKE '%counts.%'"), 0);
}

TEST(run_counts, planted_work_moves_ir_and_the_mechanism_names_the_function) {
  SKIP_WITHOUT_VALGRIND();
  temp_dir tmp("e2e-counts-slow");
  const auto r = run_cli(counts_run(tmp, {"--toggle", "SLOW", "--rounds", "2"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json_of(r);

  // SLOW does 30% more units of the same loop: Ir moves by ~30% (the loop is all of run_rep but
  // its few setup instructions), HIGHER, exact: n = 1, no CI, no p-value, outside Holm.
  const auto* ir = find_verdict(j, "SLOW", "planted.counts.Ir");
  ASSERT_NE(ir, nullptr) << r.out;
  EXPECT_EQ((*ir)["verdict"], "slower");
  EXPECT_EQ((*ir)["n"], 1);
  EXPECT_NEAR((*ir)["ratio"].get<double>(), 1.3, 0.005);
  for (const char* key : {"ci_low", "ci_high", "p_value", "p_adjusted"}) EXPECT_TRUE((*ir)[key].is_null()) << key;
  const auto* blocks = find_verdict(j, "SLOW", "planted.counts.alloc_blocks");
  ASSERT_NE(blocks, nullptr) << r.out;
  EXPECT_EQ((*blocks)["verdict"], "same");

  // work_count reads HIGHER: a mechanism block explains it, naming run_rep as where Ir grew.
  ASSERT_TRUE(j.contains("mechanisms")) << r.out;
  ASSERT_EQ(j["mechanisms"].size(), 1u) << j["mechanisms"].dump(2);
  const auto& m = j["mechanisms"][0];
  EXPECT_EQ(m["benchmark"], "planted");
  EXPECT_EQ(m["candidate"], "SLOW");
  EXPECT_EQ(m["region"], "planted::run_rep*");
  bool explains_work = false;
  for (const auto& e : m["explains"]) explains_work |= e["metric"] == "planted.work_count";
  EXPECT_TRUE(explains_work) << m.dump(2);
  ASSERT_FALSE(m["functions"].empty()) << m.dump(2);
  EXPECT_NE(m["functions"][0]["name"].get<std::string>().find("planted::run_rep"), std::string::npos) << m.dump(2);
  EXPECT_GT(m["functions"][0]["delta"].get<std::int64_t>(), 0);
  ASSERT_FALSE(m["counts"].empty());
  EXPECT_EQ(m["counts"][0]["name"], "Ir");

  // The same block in the terminal (compare re-reads the stored experiment) and the reports.
  const fs::path db = tmp / "results.db";
  const auto shown = run_cli({"--db", db.string(), "compare", j["experiment"]});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.out.find("counts.Ir"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("mechanism: SLOW vs base"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("planted::run_rep"), std::string::npos) << shown.out;
  for (const char* format : {"md", "html"}) {
    const auto report = run_cli({"--db", db.string(), "report", j["experiment"], "--format", format});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_NE(report.out.find("Mechanisms (Valgrind counts, exact)"), std::string::npos) << format;
    EXPECT_NE(report.out.find("planted::run_rep"), std::string::npos) << format;
  }
}

TEST(run_counts, resume_keeps_the_stored_counts) {
  SKIP_WITHOUT_VALGRIND();
  temp_dir tmp("e2e-counts-resume");
  const fs::path db = tmp / "results.db";
  auto args = counts_run(tmp, {"--toggle", "SLOW", "--rounds", "12"});
  args.erase(std::find(args.begin(), args.end(), "--json"));
  const auto child = spawn_cli(args, tmp.path());
  // Counts come before the rounds: once samples are recorded, both arms' counts are stored.
  std::int64_t seen = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    ASSERT_EQ(::waitpid(child.pid, &status, WNOHANG), 0) << "abtest ended before it was killed:\n" << read_text(child.err_path);
    if (fs::exists(db) && (seen = query_int(db, "SELECT count(*) FROM sample")) >= 3) break;
    sleep_us(50'000);
  }
  ASSERT_GE(seen, 3) << "no samples recorded in time";
  ::kill(child.pid, SIGKILL);
  ASSERT_EQ(wait_cli(child).signal, SIGKILL);
  const std::string before = query_text(db, "SELECT arm_idx, recorded_at, json_extract(counts, '$.totals.Ir') FROM counts ORDER BY arm_idx");
  ASSERT_EQ(query_int(db, "SELECT count(*) FROM counts WHERE counts IS NOT NULL"), 2) << before;

  const auto list = json_of(run_cli({"--db", db.string(), "--json", "list"}));
  ASSERT_EQ(list.size(), 1u);
  const auto resumed = run_cli({"--db", db.string(), "run", "--resume", list[0]["experiment"]});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(resumed.err.find("counting"), std::string::npos) << "the counts were run again:\n" << resumed.err;
  EXPECT_EQ(query_text(db, "SELECT arm_idx, recorded_at, json_extract(counts, '$.totals.Ir') FROM counts ORDER BY arm_idx"),
            before);
  EXPECT_NE(resumed.out.find("counts.Ir"), std::string::npos) << resumed.out;
}

TEST(run_counts, a_valgrind_failure_names_arm_and_benchmark_and_the_timing_still_runs) {
  SKIP_WITHOUT_VALGRIND();
  temp_dir tmp("e2e-counts-crash");
  // CRASH's benchmark dies by SIGSEGV after measuring: under Valgrind too.
  const auto r = run_cli(counts_run(tmp, {"--toggle", "CRASH", "--rounds", "2"}));
  EXPECT_EQ(r.exit_code, 4) << r.err;  // the crashed timing samples, as without --counts
  const auto j = json_of(r);
  bool named = false;
  const nlohmann::json notes = j.value("notes", nlohmann::json::array());
  for (const auto& n : notes) {
    const std::string note = n;
    named |= note.find("counts of planted for CRASH failed") != std::string::npos && note.find("signal 11") != std::string::npos;
  }
  EXPECT_TRUE(named) << notes.dump(2);
  EXPECT_NE(r.err.find("counts of planted for CRASH failed"), std::string::npos) << r.err;
  const fs::path db = tmp / "results.db";
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM counts c JOIN arm a ON a.experiment_id = c.experiment_id AND a.idx = c.arm_idx "
                          "WHERE a.variant = 'CRASH' AND c.error LIKE '%signal 11%'"), 1);
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM counts WHERE arm_idx = 0 AND counts IS NOT NULL"), 1);
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM sample WHERE arm_idx = 0 AND status = 'ok' AND warmup = 0"), 2);
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM experiment WHERE status = 'complete'"), 1);
}

}  // namespace
}  // namespace abtest::test
