// Fault injection: SIGKILL of `abtest` at seeded points during simulated runs (database writes,
// resumes) and during real builds of the planted fixture. After every kill the database passes its
// integrity check and no committed sample is lost; `--resume` completes the experiment, and its
// verdicts equal those of an uninterrupted run with the same seed.
//
// ABTEST_KILL_POINTS (default 50) and ABTEST_REAL_BUILD_KILLS (default 3) size the test; the
// `slow`-labelled ctest entry runs it with more of each.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>

#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"

namespace abtest::test {
namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

const std::string scenario = ABTEST_HARDENING_DIR "/kill_scenario.json";
constexpr std::uint64_t run_seed = 17;

std::vector<std::string> run_args(const fs::path& db) {
  return {"--db", db.string(), "-q", "run", "--simulate", scenario, "--toggle", "A4", "--variant", "A2",
          "--rounds", "40", "--seed", std::to_string(run_seed)};
}

// (variant, metric) → verdict and ratio, from `abtest compare ID --json`.
std::map<std::string, std::pair<std::string, double>> verdicts_of(const fs::path& db, const std::string& id) {
  const auto r = run_cli({"--db", db.string(), "--json", "compare", id});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  std::map<std::string, std::pair<std::string, double>> out;
  for (const auto& v : json_of(r).value("verdicts", nlohmann::json::array()))
    out[v["variant"].get<std::string>() + " " + v["metric"].get<std::string>()] = {v["verdict"], v["ratio"]};
  return out;
}

std::string fmt_where(int chain, int step, std::int64_t delay_us) {
  return "chain " + std::to_string(chain) + " step " + std::to_string(step) + " (kill after " + std::to_string(delay_us) + " us): ";
}

std::string only_experiment(const fs::path& db) {
  const auto j = json_of(run_cli({"--db", db.string(), "--json", "list"}));
  return j.is_array() && j.size() == 1 ? j[0].value("experiment", "") : "";
}

TEST(kill_points, simulated_runs_survive_sigkill_at_seeded_points) {
  const int points = env_int("ABTEST_KILL_POINTS", 50);
  const std::uint64_t seed = env_int("ABTEST_KILL_SEED", 20261202);
  SCOPED_TRACE("seed " + std::to_string(seed) + " (set ABTEST_KILL_SEED to replay)");
  std::mt19937_64 rng(seed);
  temp_dir tmp("kill-sim");

  const fs::path reference_db = tmp / "reference.db";
  ASSERT_EQ(run_cli(run_args(reference_db)).exit_code, 0);
  const auto expected = verdicts_of(reference_db, only_experiment(reference_db));
  ASSERT_EQ(expected.size(), 4u);
  const std::int64_t all_slots = query_int(reference_db, "SELECT count(*) FROM sample");

  // How long an uninterrupted run takes here, so kill delays spread over its whole life.
  const auto t0 = std::chrono::steady_clock::now();
  run_cli(run_args(tmp / "timing.db"));
  const double run_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  std::uniform_real_distribution<double> log_delay(std::log(50.0), std::log(std::max(2000.0, 1.2 * run_us)));

  int killed = 0, chains = 0, hot_journals = 0;
  while (killed < points) {
    const fs::path db = tmp / ("chain" + std::to_string(chains++) + ".db");
    std::int64_t committed = 0;
    bool complete = false;
    for (int step = 0; !complete && step < 200; ++step) {
      // A fresh run until the experiment exists, then resumes; each killed after a random delay.
      const bool started = fs::exists(db) && !only_experiment(db).empty();
      auto args = run_args(db);
      if (started) args = {"--db", db.string(), "-q", "run", "--resume"};
      const auto delay = static_cast<std::int64_t>(std::exp(log_delay(rng)));
      const auto child = spawn_cli(args, tmp.path());
      sleep_us(delay);
      ::kill(child.pid, SIGKILL);
      const auto r = wait_cli(child);
      const std::string where = fmt_where(chains, step, delay);
      if (r.signal == SIGKILL) {
        ++killed;
      } else {
        ASSERT_EQ(r.exit_code, 0) << where << r.err;
      }
      if (!fs::exists(db)) continue;
      std::string why;
      if (!db_check_passes(db, &why) && (why.find("hot journal") != std::string::npos)) {
        // Killed inside the first open's write before the file was in WAL mode: SQLite's rollback
        // journal is hot, and only a writer may roll it back. One write-open must recover it.
        ++hot_journals;
        const auto recovered = run_cli({"--db", db.string(), "db", "migrate"});
        ASSERT_EQ(recovered.exit_code, 0) << where << recovered.err;
      }
      ASSERT_TRUE(db_check_passes(db, &why)) << where << why;
      // Killed while the first open created the schema: the migration's transaction left nothing.
      if (query_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'sample'") == 0) {
        ASSERT_EQ(committed, 0) << where << "the schema disappeared";
        continue;
      }
      const auto now = query_int(db, "SELECT count(*) FROM sample");
      ASSERT_GE(now, committed) << where << "committed samples were lost";
      committed = now;
      complete = query_int(db, "SELECT count(*) FROM experiment WHERE status = 'complete'") == 1;
    }
    ASSERT_TRUE(complete) << "chain " << chains << " never completed";
    EXPECT_EQ(committed, all_slots);
    EXPECT_EQ(verdicts_of(db, only_experiment(db)), expected) << "chain " << chains;
  }
  std::printf("%d kills over %d experiments (%d left a hot journal that a write-open rolled back)\n", killed, chains,
              hot_journals);
}


// Processes (the build tools abtest had started) that work in `dir`: their command line mentions
// it or their working folder is under it. The working folder matters: when abtest dies, the kernel
// kills `cmake --build DIR` (PR_SET_PDEATHSIG), but the `ninja` it ran lives on with a command
// line that names no path, and between two of its compiler jobs nothing else mentions `dir`.
std::vector<pid_t> processes_in(const fs::path& dir) {
  std::vector<pid_t> out;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = read_text(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    std::error_code ec;  // the process may be gone, or not ours
    const auto cwd = fs::read_symlink(entry.path() / "cwd", ec).string();
    if (cmdline.find(dir.string()) != std::string::npos || (!ec && cwd.starts_with(dir.string())))
      out.push_back(std::stoi(name));
  }
  return out;
}

// Waits (up to two minutes) until no process works in `dir` for a whole second: a build tool's
// next job may start a moment after its last one ended.
bool build_tools_finish(const fs::path& dir) {
  int quiet_polls = 0;
  for (int t = 0; t < 1200 && quiet_polls < 10; ++t) {
    quiet_polls = processes_in(dir).empty() ? quiet_polls + 1 : 0;
    sleep_us(100'000);
  }
  return quiet_polls >= 10;
}

// SIGKILL of abtest while it builds a cold copy of the planted fixture (a source touched before
// every attempt, so each one has real compiling to do): the database stays sound, and a final run
// builds what is left and gives the planted verdict.
TEST(kill_points, real_builds_survive_sigkill) {
  const int kills = env_int("ABTEST_REAL_BUILD_KILLS", 3);
  const std::uint64_t seed = env_int("ABTEST_KILL_SEED", 20261202);
  SCOPED_TRACE("seed " + std::to_string(seed) + " (set ABTEST_KILL_SEED to replay)");
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> delay_ms(200, 4000);
  temp_dir tmp("kill-build");
  const fs::path project = tmp / "planted";
  copy_planted_sources(project);
  const fs::path db = tmp / "r.db";
  const std::vector<std::string> args{"--manifest", (project / "abtest.json").string(), "--db", db.string(), "-q", "--json",
                                      "run", "--toggle", "SLOW", "--bench", "planted", "--rounds", "3", "--seed", "9", "-j", "2"};
  std::int64_t committed = 0;
  for (int i = 0; i < kills; ++i) {
    fs::last_write_time(project / "src" / "work.cpp", fs::file_time_type::clock::now());
    const auto delay = delay_ms(rng);
    const auto child = spawn_cli(args, tmp.path());
    sleep_us(delay * 1000);
    ::kill(child.pid, SIGKILL);
    const auto r = wait_cli(child);
    if (r.signal != SIGKILL) {
      EXPECT_EQ(r.exit_code, 0) << "kill " << i << ": " << r.err;
    }
    // SIGKILL cannot be caught: the build tools abtest started finish on their own. Wait for them.
    ASSERT_TRUE(build_tools_finish(project)) << "build processes still running two minutes after the kill";
    if (!fs::exists(db)) continue;
    std::string why;
    ASSERT_TRUE(db_check_passes(db, &why)) << "kill " << i << " after " << delay << " ms: " << why;
    const auto now = query_int(db, "SELECT count(*) FROM sample");
    ASSERT_GE(now, committed) << "kill " << i << ": committed samples were lost";
    committed = now;
  }
  const auto r = run_cli(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  bool seen = false;
  for (const auto& v : json_of(r).value("verdicts", nlohmann::json::array()))
    if (v["metric"] == "planted.work_count") {
      seen = true;
      EXPECT_EQ(v["verdict"], "slower");
      EXPECT_NEAR(v["ratio"].get<double>(), 1.3, 1e-9);
    }
  EXPECT_TRUE(seen) << r.out;
  std::string why;
  EXPECT_TRUE(db_check_passes(db, &why)) << why;
}

}  // namespace
}  // namespace abtest::test
