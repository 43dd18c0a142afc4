// Tests of db::check and db::merge.
#include "db/maintenance.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "db/error.hpp"
#include "db/migrations.hpp"
#include "db/statement.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using testing::at;
using testing::make_build;
using testing::make_experiment;
using testing::make_foreign_file;
using testing::make_machine;
using testing::make_sample;
using testing::temp_dir;

TEST(check, a_healthy_file_is_ok) {
  temp_dir dir;
  { results_store store{dir / "results.db"}; }
  auto report = check(dir / "results.db");
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.schema_version, latest_schema_version());
}

TEST(check, reports_rows_whose_parent_is_missing) {
  temp_dir dir;
  {
    results_store store{dir / "results.db"};
    // Only a writer that turned foreign keys off could do this; check must still see it.
    store.connection().exec("PRAGMA foreign_keys = OFF");
    store.connection().exec("INSERT INTO build_binary(build_id, target, path, sha256) VALUES (99, 't', 'p', 'h')");
  }
  auto report = check(dir / "results.db");
  EXPECT_FALSE(report.ok());
  ASSERT_EQ(report.foreign_key_problems.size(), 1u);
  EXPECT_EQ(report.foreign_key_problems[0], "build_binary row ? → missing build");  // WITHOUT ROWID: no rowid
}

TEST(check, refuses_a_foreign_file) {
  temp_dir dir;
  make_foreign_file(dir / "other.db", "PRAGMA application_id = 7; CREATE TABLE t(x)");
  EXPECT_THROW(check(dir / "other.db"), error);
}

class merge_test : public ::testing::Test {
 protected:
  // Machine "fp" and experiment r-1 under one fixed uuid, created in `store`; returns the machine's id.
  // Called on two files, it makes them hold the same experiment, as a copied results file does.
  static std::int64_t create_shared_experiment(results_store& store) {
    const auto machine = store.upsert_machine(make_machine("fp"));
    auto e = make_experiment("r-1", machine);
    e.uuid = "00000000-0000-4000-8000-000000000001";
    store.create_experiment(e);
    return machine;
  }

  temp_dir dir_;
};

TEST_F(merge_test, copies_everything_into_an_empty_target_and_a_second_merge_adds_nothing) {
  {
    results_store a{dir_ / "a.db"};
    a.upsert_machine(make_machine("fp-unused"));  // ids in a and in the target differ
    const auto machine = a.upsert_machine(make_machine("fp-a"));
    const auto build = a.insert_build(make_build(machine));
    auto e = make_experiment("r-1", machine);
    e.arms[1].build_id = build;
    a.create_experiment(e);
    auto s = make_sample("r-1", machine, 1, 0);
    s.build_id = build;
    a.insert_sample(s);
    a.insert_sample(make_sample("r-1", machine, 0, 0));
    verdict_record v;
    v.variant = "A1=4+B1";
    v.baseline = "base";
    v.metric = "proof.total_s";
    v.verdict = verdict_kind::slower;
    v.created_at = at(5);
    a.replace_verdicts("r-1", std::span(&v, 1));
    a.insert_bisect_step({"r-1", 0, "base", "A1=4+B1", verdict_kind::slower, 10, 1.06, std::nullopt});
    a.record_changepoint({0, "base", "proof.total_s", "r-1", at(3), 0.06, 0.001, changepoint_state::acknowledged,
                          std::nullopt});
    a.upsert_reference({0, "ref", {{"preset", "small"}}, "proof.total_s", 1.0});
  }
  {
    results_store target{dir_ / "target.db"};
    target.upsert_machine(make_machine("fp-target"));
  }
  const std::filesystem::path sources[] = {dir_ / "a.db"};
  auto reports = merge(dir_ / "target.db", sources);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].machines_added, 2);
  EXPECT_EQ(reports[0].builds_added, 1);
  EXPECT_EQ(reports[0].experiments_added, 1);
  EXPECT_EQ(reports[0].samples_added, 2);
  EXPECT_EQ(reports[0].verdicts_added, 1);

  results_store target{dir_ / "target.db"};
  auto machines = target.list_machines();
  ASSERT_EQ(machines.size(), 3u);
  const auto fp_a = machines[2].fingerprint == "fp-a" ? machines[2].id : machines[1].id;
  auto samples = target.list_samples("r-1");
  ASSERT_EQ(samples.size(), 2u);
  for (const auto& s : samples) EXPECT_EQ(s.machine_id, fp_a) << "samples keep their machine";
  auto experiment = target.find_experiment("r-1");
  ASSERT_TRUE(experiment);
  auto build = target.find_build(*experiment->arms[1].build_id);
  ASSERT_TRUE(build);
  EXPECT_EQ(build->machine_id, fp_a);
  EXPECT_EQ(build->binaries.size(), 1u);
  EXPECT_EQ(samples[0].build_id, build->id);
  EXPECT_EQ(target.list_verdicts("r-1").size(), 1u);
  EXPECT_EQ(target.list_bisect_steps("r-1").size(), 1u);
  ASSERT_EQ(target.list_changepoints().size(), 1u);
  EXPECT_EQ(target.list_changepoints()[0].state, changepoint_state::acknowledged);
  EXPECT_EQ(target.list_references().size(), 1u);

  auto again = target.merge_from(dir_ / "a.db");
  EXPECT_EQ(again.machines_added + again.builds_added + again.experiments_added + again.samples_added +
                again.verdicts_added,
            0);
  EXPECT_EQ(again.samples_present, 2);
  EXPECT_EQ(target.list_samples("r-1").size(), 2u);
  EXPECT_EQ(target.list_builds().size(), 1u);
  EXPECT_TRUE(check(dir_ / "target.db").ok());
}

TEST_F(merge_test, dedupes_by_uuid_and_renames_a_colliding_experiment_id) {
  // b.db starts as a copy of a.db's experiment (same uuids), then gains more samples; c.db holds
  // a different experiment that happens to have the same id.
  sample shared;
  {
    results_store a{dir_ / "a.db"};
    const auto machine = create_shared_experiment(a);
    shared = make_sample("r-1", machine, 0, 0);
    shared.uuid = "00000000-0000-4000-8000-0000000000aa";
    a.insert_sample(shared);
  }
  {
    results_store b{dir_ / "b.db"};
    const auto machine = create_shared_experiment(b);
    b.insert_sample(shared);
    b.insert_sample(make_sample("r-1", machine, 1, 0));
    b.insert_sample(make_sample("r-1", machine, 0, 0 + 1));
    auto conflicting = make_sample("r-1", machine, 0, 0);  // a's key under another uuid
    conflicting.warmup = false;
    conflicting.round = 0;
    conflicting.uuid = "00000000-0000-4000-8000-0000000000bb";
    EXPECT_THROW(b.insert_sample(conflicting), error);  // b itself refuses it, of course
  }
  {
    results_store c{dir_ / "c.db"};
    const auto machine = c.upsert_machine(make_machine("fp-c"));
    c.create_experiment(make_experiment("r-1", machine));  // new uuid, same id
    c.insert_sample(make_sample("r-1", machine, 0, 0));
  }
  const std::filesystem::path sources[] = {dir_ / "b.db", dir_ / "c.db"};
  auto reports = merge(dir_ / "a.db", sources);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0].experiments_added, 0);
  EXPECT_EQ(reports[0].samples_present, 1);
  EXPECT_EQ(reports[0].samples_added, 2);
  EXPECT_EQ(reports[1].experiments_added, 1);
  ASSERT_EQ(reports[1].renamed_experiments.size(), 1u);
  EXPECT_EQ(reports[1].renamed_experiments[0], "r-1 -> r-1-2");

  results_store a{dir_ / "a.db"};
  EXPECT_EQ(a.list_samples("r-1").size(), 3u);
  EXPECT_EQ(a.list_samples("r-1-2").size(), 1u);
  EXPECT_EQ(a.list_machines().size(), 2u);
}

TEST_F(merge_test, a_sample_whose_key_is_taken_is_skipped_and_counted) {
  {
    results_store a{dir_ / "a.db"};
    const auto machine = create_shared_experiment(a);
    a.insert_sample(make_sample("r-1", machine, 0, 0, {{"proof.total_s", 1.0}}));
  }
  {
    results_store b{dir_ / "b.db"};
    const auto machine = create_shared_experiment(b);
    b.insert_sample(make_sample("r-1", machine, 0, 0, {{"proof.total_s", 2.0}}));  // same key, other uuid
    b.insert_sample(make_sample("r-1", machine, 0, 1));
  }
  results_store a{dir_ / "a.db"};
  auto report = a.merge_from(dir_ / "b.db");
  EXPECT_EQ(report.samples_conflicting, 1);
  EXPECT_EQ(report.samples_added, 1);
  auto samples = a.list_samples("r-1");
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].metrics.at("proof.total_s"), 1.0);  // the target's own sample stays
}

TEST_F(merge_test, a_failing_source_leaves_the_target_untouched) {
  { results_store target{dir_ / "target.db"}; }
  make_foreign_file(dir_ / "foreign.db", "PRAGMA application_id = 7; CREATE TABLE t(x)");
  results_store target{dir_ / "target.db"};
  EXPECT_THROW(target.merge_from(dir_ / "foreign.db"), error);
  EXPECT_THROW(target.merge_from(dir_ / "missing.db"), error);
  EXPECT_TRUE(target.list_machines().empty());
  EXPECT_FALSE(std::filesystem::exists(dir_ / "missing.db"));
}

}  // namespace
}  // namespace abtest::db
