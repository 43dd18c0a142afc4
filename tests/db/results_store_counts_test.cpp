// Tests of the counts rows in db::results_store: round trip, replacement on retry, the one-of
// constraint, the v_count view, cascade and merge.
#include <gtest/gtest.h>

#include "db/error.hpp"
#include "db/query.hpp"
#include "db/results_store.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using testing::at;
using testing::make_experiment;
using testing::make_machine;
using testing::temp_dir;

counts_record ok_counts(int arm, std::uint64_t ir) {
  counts_record c;
  c.experiment_id = "r-1";
  c.arm_idx = arm;
  c.benchmark = "synth";
  c.spec = {{"argv", {"synth-bench", "--preset=tiny"}}, {"params", {{"preset", "tiny"}}}, {"region", "run*"}};
  c.counts = nlohmann::json{{"totals", {{"Ir", ir}, {"D1mr", 12}}}, {"functions", nlohmann::json::array()}};
  c.wall_s = 4.5;
  c.recorded_at = at(30);
  return c;
}

class counts_rows_test : public ::testing::Test {
 protected:
  counts_rows_test() : store_(dir_ / "results.db") {
    machine_ = store_.upsert_machine(make_machine("fp"));
    store_.create_experiment(make_experiment("r-1", machine_, 10));
  }
  temp_dir dir_;
  results_store store_;
  std::int64_t machine_ = 0;
};

TEST_F(counts_rows_test, round_trips_and_a_retry_replaces_the_failure) {
  counts_record failed;
  failed.experiment_id = "r-1";
  failed.arm_idx = 1;
  failed.benchmark = "synth";
  failed.error = "synth-bench exited with code 1 under callgrind — run it without Valgrind";
  store_.record_counts(failed);
  store_.record_counts(ok_counts(0, 1000));
  auto rows = store_.list_counts("r-1");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].arm_idx, 0);
  EXPECT_EQ(rows[0].counts->at("totals").at("Ir"), 1000);
  EXPECT_EQ(rows[0].spec.at("region"), "run*");
  EXPECT_EQ(rows[0].wall_s, 4.5);
  EXPECT_EQ(rows[0].recorded_at, at(30));
  EXPECT_FALSE(rows[1].counts);
  EXPECT_EQ(rows[1].error, failed.error);

  store_.record_counts(ok_counts(1, 990));  // the resumed run's retry
  rows = store_.list_counts("r-1");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_FALSE(rows[1].error);
  EXPECT_EQ(rows[1].counts->at("totals").at("Ir"), 990);
}

TEST_F(counts_rows_test, a_row_holds_counts_or_an_error_never_both_nor_neither) {
  counts_record neither = ok_counts(0, 1);
  neither.counts.reset();
  EXPECT_THROW(store_.record_counts(neither), error);
  counts_record both = ok_counts(0, 1);
  both.error = "x";
  EXPECT_THROW(store_.record_counts(both), error);
  counts_record unknown_arm = ok_counts(7, 1);
  EXPECT_THROW(store_.record_counts(unknown_arm), error);
  EXPECT_TRUE(store_.list_counts("r-1").empty());
}

TEST_F(counts_rows_test, the_view_has_one_row_per_total_and_rows_go_with_their_experiment) {
  store_.record_counts(ok_counts(0, 1000));
  store_.record_counts(ok_counts(1, 1300));
  const auto r = read_only_query(dir_ / "results.db",
                                 "SELECT variant, value FROM v_count WHERE name = 'Ir' ORDER BY arm_idx");
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(std::get<std::string>(r.rows[1][0]), "A1=4+B1");
  EXPECT_EQ(std::get<std::int64_t>(r.rows[1][1]), 1300);

  store_.connection().exec("DELETE FROM experiment WHERE id = 'r-1'");
  EXPECT_TRUE(store_.list_counts("r-1").empty());
}

TEST_F(counts_rows_test, merge_copies_the_counts_of_a_new_experiment) {
  store_.record_counts(ok_counts(0, 1000));
  results_store target(dir_ / "target.db");
  target.merge_from(dir_ / "results.db");
  const auto rows = target.list_counts("r-1");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].counts->at("totals").at("Ir"), 1000);
}

}  // namespace
}  // namespace abtest::db
