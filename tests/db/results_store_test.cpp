// Tests of db::results_store: opening, machines, builds and experiments round trips.
#include "db/results_store.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "db/error.hpp"
#include "db/migrations.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using testing::at;
using testing::make_experiment;
using testing::make_machine;
using testing::temp_dir;

class results_store_test : public ::testing::Test {
 protected:
  results_store_test() : store_(dir_ / "results.db") {}

  build_record make_build(std::string variant, std::optional<std::string> commit, int started) {
    build_record b;
    b.variant = std::move(variant);
    b.levels = {{"A1", "4"}, {"B1", "ON"}};
    b.source_dir = "/src/porep";
    b.commit_sha = std::move(commit);
    b.compiler = "g++ 12.2";
    b.flags = "-O2";
    b.build_dir = ".abtest/build/" + b.variant;
    b.started_at = at(started);
    b.duration_s = 42.5;
    b.log_path = ".abtest/logs/build.log";
    b.binaries = {{"synth-bench", "bin/synth-bench", "aa11"}, {"porep-bench", "bin/porep-bench", "bb22"}};
    return b;
  }

  temp_dir dir_;
  results_store store_;
};

TEST_F(results_store_test, a_new_store_is_at_the_latest_schema) {
  EXPECT_EQ(store_.connection().user_version(), latest_schema_version());
  EXPECT_NO_THROW(results_store(dir_ / "results.db", open_mode::read_only));
}

TEST_F(results_store_test, machine_upsert_matches_on_fingerprint) {
  machine_record m = make_machine("fp-1");
  const auto id = store_.upsert_machine(m);
  m.hostname = "renamed";
  m.gpu.reset();
  EXPECT_EQ(store_.upsert_machine(m), id);
  const auto other = store_.upsert_machine(make_machine("fp-2"));
  EXPECT_NE(other, id);

  auto machines = store_.list_machines();
  ASSERT_EQ(machines.size(), 2u);
  EXPECT_EQ(machines[0].id, id);
  EXPECT_EQ(machines[0].hostname, "renamed");
  EXPECT_EQ(machines[0].gpu, std::nullopt);
  EXPECT_EQ(machines[0].cores, 96);
  EXPECT_EQ(machines[0].details.at("governor"), "performance");
}

TEST_F(results_store_test, build_round_trips_with_binaries) {
  build_record b = make_build("A1=4+B1", "c0ffee", 10);
  b.status = build_status::failed;
  b.log_tail = "error: boom";
  b.dirty = true;
  b.machine_id = store_.upsert_machine(make_machine("fp"));
  const auto id = store_.insert_build(b);

  auto read = store_.find_build(id);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->id, id);
  EXPECT_EQ(read->uuid.size(), 36u);  // assigned
  EXPECT_EQ(read->variant, "A1=4+B1");
  EXPECT_EQ(read->levels, b.levels);
  EXPECT_EQ(read->commit_sha, "c0ffee");
  EXPECT_TRUE(read->dirty);
  EXPECT_EQ(read->started_at, b.started_at);
  EXPECT_EQ(read->duration_s, 42.5);
  EXPECT_EQ(read->status, build_status::failed);
  EXPECT_EQ(read->log_tail, "error: boom");
  EXPECT_EQ(read->machine_id, b.machine_id);
  ASSERT_EQ(read->binaries.size(), 2u);
  EXPECT_EQ(read->binaries[0].target, "porep-bench");  // sorted by target
  EXPECT_EQ(read->binaries[0].sha256, "bb22");
  EXPECT_FALSE(store_.find_build(id + 100));
}

TEST_F(results_store_test, latest_ok_build_skips_failed_dirty_and_other_commits) {
  const auto older = store_.insert_build(make_build("B1", "c1", 10));
  const auto newer = store_.insert_build(make_build("B1", "c1", 20));
  auto failed = make_build("B1", "c1", 30);
  failed.status = build_status::failed;
  store_.insert_build(failed);
  auto dirty = make_build("B1", "c1", 40);
  dirty.dirty = true;
  store_.insert_build(dirty);
  store_.insert_build(make_build("B1", "c2", 50));
  store_.insert_build(make_build("A1=4", "c1", 60));
  const auto no_git = store_.insert_build(make_build("B1", std::nullopt, 70));

  auto found = store_.latest_ok_build("B1", "c1");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, newer);
  EXPECT_NE(found->id, older);
  EXPECT_EQ(found->binaries.size(), 2u);
  EXPECT_EQ(store_.latest_ok_build("B1", std::nullopt)->id, no_git);
  EXPECT_FALSE(store_.latest_ok_build("D4", "c1"));
  EXPECT_EQ(store_.list_builds().size(), 7u);
}

TEST_F(results_store_test, a_build_with_a_duplicate_binary_target_is_not_stored_at_all) {
  auto b = make_build("B1", "c1", 10);
  b.binaries.push_back(b.binaries.front());
  EXPECT_THROW(store_.insert_build(b), error);
  EXPECT_TRUE(store_.list_builds().empty());
}

TEST_F(results_store_test, experiment_round_trips_with_its_arms) {
  const auto machine = store_.upsert_machine(make_machine("fp"));
  experiment_record e = make_experiment("r-20261202-154501-3f2a", machine);
  e.manifest_path = "abtest.json";
  store_.create_experiment(e);

  auto read = store_.find_experiment(e.id);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->kind, experiment_kind::run);
  EXPECT_EQ(read->uuid.size(), 36u);
  EXPECT_EQ(read->command_line, e.command_line);
  EXPECT_EQ(read->manifest_path, "abtest.json");
  EXPECT_EQ(read->config, e.config);
  EXPECT_EQ(read->seed, 7);
  EXPECT_EQ(read->status, experiment_status::running);
  EXPECT_EQ(read->started_at, e.started_at);
  EXPECT_EQ(read->finished_at, std::nullopt);
  EXPECT_EQ(read->machine_id, machine);
  ASSERT_EQ(read->arms.size(), 2u);
  EXPECT_EQ(read->arms[0].role, arm_role::baseline);
  EXPECT_EQ(read->arms[1].variant, "A1=4+B1");
  EXPECT_EQ(read->arms[1].levels.at("A1"), "4");
  EXPECT_FALSE(store_.find_experiment("r-none"));
}

TEST_F(results_store_test, experiment_and_arms_are_created_together_or_not_at_all) {
  auto e = make_experiment("r-1", store_.upsert_machine(make_machine("fp")));
  e.arms[1].idx = 0;  // duplicate arm index: the second arm fails after the experiment row went in
  EXPECT_THROW(store_.create_experiment(e), error);
  EXPECT_FALSE(store_.find_experiment("r-1"));
}

TEST_F(results_store_test, a_duplicate_experiment_id_is_refused) {
  const auto machine = store_.upsert_machine(make_machine("fp"));
  store_.create_experiment(make_experiment("r-1", machine));
  try {
    store_.create_experiment(make_experiment("r-1", machine));
    FAIL() << "stored two experiments with one id";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), SQLITE_CONSTRAINT_PRIMARYKEY);
  }
}

TEST_F(results_store_test, status_and_arm_build_updates) {
  const auto machine = store_.upsert_machine(make_machine("fp"));
  store_.create_experiment(make_experiment("r-1", machine));
  store_.set_experiment_status("r-1", experiment_status::complete, at(500));
  const auto build = store_.insert_build(make_build("A1=4+B1", "c1", 1));
  store_.set_arm_build("r-1", 1, build);

  auto e = store_.find_experiment("r-1");
  EXPECT_EQ(e->status, experiment_status::complete);
  EXPECT_EQ(e->finished_at, at(500));
  EXPECT_EQ(e->arms[1].build_id, build);
  EXPECT_EQ(e->arms[0].build_id, std::nullopt);

  store_.set_experiment_status("r-1", experiment_status::incomplete);  // keeps finished_at
  EXPECT_EQ(store_.find_experiment("r-1")->finished_at, at(500));
  EXPECT_THROW(store_.set_experiment_status("r-none", experiment_status::failed), error);
  EXPECT_THROW(store_.set_arm_build("r-1", 7, build), error);
  EXPECT_THROW(store_.set_arm_build("r-1", 0, build + 100), error);  // no such build: foreign key
}

TEST_F(results_store_test, list_experiments_is_newest_first_with_filter_and_limit) {
  const auto machine = store_.upsert_machine(make_machine("fp"));
  store_.create_experiment(make_experiment("r-old", machine, 10));
  auto nightly = make_experiment("n-mid", machine, 20);
  nightly.kind = experiment_kind::nightly;
  store_.create_experiment(nightly);
  store_.create_experiment(make_experiment("r-new", machine, 30));

  auto all = store_.list_experiments();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].id, "r-new");
  EXPECT_EQ(all[2].id, "r-old");
  EXPECT_EQ(all[0].arms.size(), 2u);
  auto nightlies = store_.list_experiments(experiment_kind::nightly);
  ASSERT_EQ(nightlies.size(), 1u);
  EXPECT_EQ(nightlies[0].id, "n-mid");
  auto newest = store_.list_experiments(std::nullopt, 1);
  ASSERT_EQ(newest.size(), 1u);
  EXPECT_EQ(newest[0].id, "r-new");
}

}  // namespace
}  // namespace abtest::db
