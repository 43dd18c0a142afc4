// Tests of the schema migrations: from empty and from every past version to the latest.
#include "db/migrations.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "db/database.hpp"
#include "db/error.hpp"
#include "db/results_store.hpp"
#include "db/statement.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using ::testing::HasSubstr;
using testing::temp_dir;

/// Every table, index and view with its SQL, for comparing two schemas.
std::vector<std::string> schema_of(database& db) {
  statement q{db, "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name"};
  std::vector<std::string> rows;
  while (q.step()) rows.push_back(q.column_text(0));
  return rows;
}

TEST(migrations, versions_are_numbered_one_by_one) {
  int expected = 1;
  for (const migration& m : migrations()) {
    EXPECT_EQ(m.version, expected++) << m.name;
    EXPECT_FALSE(m.sql.empty());
  }
  EXPECT_EQ(latest_schema_version(), expected - 1);
}

TEST(migrations, an_empty_file_migrates_to_the_latest_and_a_second_run_does_nothing) {
  temp_dir dir;
  database db{dir / "results.db"};
  EXPECT_EQ(migrate(db), latest_schema_version());
  EXPECT_EQ(db.user_version(), latest_schema_version());
  EXPECT_EQ(migrate(db), 0);
  EXPECT_FALSE(db.in_transaction());
}

TEST(migrations, every_past_version_migrates_to_the_schema_of_a_fresh_file) {
  temp_dir dir;
  database fresh{dir / "fresh.db"};
  migrate(fresh);
  const auto expected = schema_of(fresh);
  for (int version = 0; version <= latest_schema_version(); ++version) {
    SCOPED_TRACE("from version " + std::to_string(version));
    database old{dir / ("v" + std::to_string(version) + ".db")};
    EXPECT_EQ(migrate(old, version), version);
    EXPECT_EQ(old.user_version(), version);
    EXPECT_EQ(migrate(old), latest_schema_version() - version);
    EXPECT_EQ(schema_of(old), expected);
  }
}

TEST(migrations, a_v1_file_with_data_keeps_it_through_the_migration) {
  temp_dir dir;
  {
    database v1{dir / "results.db"};
    migrate(v1, 1);
    // Rows as version 1 wrote them: raw SQL, since the store speaks only the latest schema.
    v1.exec(R"sql(
      INSERT INTO machine(id, fingerprint, hostname, cpu_model) VALUES (1, 'fp-1', 'bench-01', 'cpu');
      INSERT INTO experiment(id, uuid, kind, command_line, seed, status, started_at)
        VALUES ('r-1', 'u-1', 'run', 'abtest run', 7, 'complete', '2026-12-01T10:00:00.000Z');
      INSERT INTO arm(experiment_id, idx, variant, levels, role) VALUES ('r-1', 0, 'base', '{}', 'baseline'),
                                                                        ('r-1', 1, 'B1', '{"B1":"ON"}', 'candidate');
      INSERT INTO sample(id, uuid, experiment_id, arm_idx, benchmark, round, position, warmup, machine_id,
                         started_at, status)
        VALUES (1, 's-1', 'r-1', 0, 'proof', 0, 0, 0, 1, '2026-12-01T10:00:01.000Z', 'ok'),
               (2, 's-2', 'r-1', 1, 'proof', 0, 1, 0, 1, '2026-12-01T10:00:02.000Z', 'ok');
      INSERT INTO metric(sample_id, name, value) VALUES (1, 'proof.total_s', 2.0), (2, 'proof.total_s', 2.2);
    )sql");
  }
  results_store store{dir / "results.db"};  // opening for writing migrates
  EXPECT_EQ(store.connection().user_version(), latest_schema_version());
  auto samples = store.list_samples("r-1");
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[1].metrics.at("proof.total_s"), 2.2);
  EXPECT_EQ(store.find_experiment("r-1")->arms.at(1).levels.at("B1"), "ON");
  // The tables and views of later versions work on the old rows.
  auto series = store.series("B1", "proof.total_s");
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].median, 2.2);
  verdict_record v;
  v.variant = "B1";
  v.baseline = "base";
  v.metric = "proof.total_s";
  v.n = 1;
  v.verdict = verdict_kind::inconclusive;
  EXPECT_NO_THROW(store.replace_verdicts("r-1", std::span(&v, 1)));
}

TEST(migrations, a_v4_verdict_reads_back_without_details) {
  temp_dir dir;
  {
    database v4{dir / "results.db"};
    migrate(v4, 4);
    v4.exec(R"sql(
      INSERT INTO experiment(id, uuid, kind, command_line, seed, status, started_at)
        VALUES ('r-1', 'u-1', 'run', 'abtest run', 7, 'complete', '2026-12-01T10:00:00.000Z');
      INSERT INTO verdict(experiment_id, variant, baseline, metric, n, ratio, verdict, created_at)
        VALUES ('r-1', 'B1', 'base', 'proof.total_s', 12, 1.062, 'slower', '2026-12-01T10:01:00.000Z');
    )sql");
  }
  results_store store{dir / "results.db"};
  const auto verdicts = store.list_verdicts("r-1");
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].ratio, 1.062);
  EXPECT_EQ(verdicts[0].verdict, verdict_kind::slower);
  EXPECT_TRUE(verdicts[0].details.empty());
}

TEST(migrations, a_file_newer_than_this_build_is_refused) {
  temp_dir dir;
  {
    database db{dir / "results.db"};
    migrate(db);
    db.set_user_version(latest_schema_version() + 1);
  }
  database db{dir / "results.db"};
  try {
    migrate(db);
    FAIL() << "migrated a newer file";
  } catch (const error& e) {
    EXPECT_THAT(e.what(), HasSubstr("newer than this abtest knows"));
    EXPECT_THAT(e.what(), HasSubstr("update abtest"));
  }
  EXPECT_THROW(results_store(dir / "results.db"), error);
  EXPECT_THROW(results_store(dir / "results.db", open_mode::read_only), error);
  EXPECT_EQ(db.user_version(), latest_schema_version() + 1);
}

TEST(migrations, read_only_open_of_an_old_file_asks_for_a_migration) {
  temp_dir dir;
  {
    database db{dir / "results.db"};
    migrate(db, 1);
  }
  try {
    results_store store{dir / "results.db", open_mode::read_only};
    FAIL() << "opened an old schema read-only";
  } catch (const error& e) {
    EXPECT_THAT(e.what(), HasSubstr("abtest db migrate"));
  }
}

TEST(migrations, never_go_backwards) {
  temp_dir dir;
  database db{dir / "results.db"};
  migrate(db);
  ASSERT_GT(latest_schema_version(), 1);
  EXPECT_THROW(migrate(db, 1), error);
  EXPECT_THROW(migrate(db, latest_schema_version() + 1), error);
}

}  // namespace
}  // namespace abtest::db
