// Concurrency: two `abtest run --simulate` writers on one database (created by whichever opens it
// first) and a reader running `abtest query` in a loop: no SQLITE_BUSY / "database is locked"
// reaches the user, every query succeeds, counts only grow, and no row is lost.
#include <gtest/gtest.h>

#include <string>

#include "tests/hardening/abtest_cli.hpp"

namespace abtest::test {
namespace {

const std::string scenario = ABTEST_HARDENING_DIR "/kill_scenario.json";

bool mentions_busy(const std::string& text) {
  return text.find("locked") != std::string::npos || text.find("BUSY") != std::string::npos ||
         text.find("busy") != std::string::npos;
}

TEST(concurrency, two_writers_and_a_reader_lose_nothing_and_never_see_busy) {
  constexpr int rounds = 60, warmups = 1, arms = 3;
  for (int trial = 0; trial < 2; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    temp_dir tmp("concurrency");
    const fs::path db = tmp / "shared.db";  // not created yet: both writers race to create and migrate it
    auto writer = [&](int seed) {
      return spawn_cli({"--db", db.string(), "-q", "run", "--simulate", scenario, "--toggle", "A4", "--variant", "A2",
                        "--rounds", std::to_string(rounds), "--warmups", std::to_string(warmups), "--seed", std::to_string(seed)},
                       tmp.path());
    };
    const auto w1 = writer(1), w2 = writer(2);
    int alive = 2, queries = 0;
    std::int64_t last = 0;
    bool w1_done = false, w2_done = false;
    cli_result r1, r2;
    while (alive > 0) {
      if (fs::exists(db)) {
        const auto q = run_cli({"--db", db.string(), "query", "--format", "json", "SELECT count(*) AS n FROM sample"});
        EXPECT_FALSE(mentions_busy(q.err)) << q.err;
        // The file may exist before its schema does (the first writer is migrating it).
        if (q.exit_code == 0) {
          const auto j = json_of(q);
          const std::int64_t n = j.is_array() && !j.empty() ? j[0].value("n", std::int64_t{-1}) : -1;
          EXPECT_GE(n, last) << "the count went down";
          last = std::max(last, n);
          ++queries;
        } else {
          EXPECT_NE(q.err.find("no such table"), std::string::npos) << "query failed: " << q.err;
        }
      }
      int status = 0;
      if (!w1_done && ::waitpid(w1.pid, &status, WNOHANG) == w1.pid) {
        w1_done = true, --alive;
        r1 = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0, read_text(w1.out_path), read_text(w1.err_path)};
      }
      if (!w2_done && ::waitpid(w2.pid, &status, WNOHANG) == w2.pid) {
        w2_done = true, --alive;
        r2 = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0, read_text(w2.out_path), read_text(w2.err_path)};
      }
    }
    for (const auto* r : {&r1, &r2}) {
      EXPECT_EQ(r->exit_code, 0) << r->err;
      EXPECT_FALSE(mentions_busy(r->err)) << r->err;
    }
    EXPECT_GT(queries, 0);
    EXPECT_EQ(query_int(db, "SELECT count(*) FROM sample"), 2 * arms * (rounds + warmups));
    EXPECT_EQ(query_int(db, "SELECT count(*) FROM experiment WHERE status = 'complete'"), 2);
    EXPECT_EQ(query_int(db, "SELECT min(n) FROM (SELECT count(*) AS n FROM sample GROUP BY experiment_id)"), arms * (rounds + warmups));
    EXPECT_EQ(query_int(db, "SELECT count(*) FROM metric m LEFT JOIN sample s ON s.id = m.sample_id WHERE s.id IS NULL"), 0);
    std::string why;
    EXPECT_TRUE(db_check_passes(db, &why)) << why;
  }
}

}  // namespace
}  // namespace abtest::test
