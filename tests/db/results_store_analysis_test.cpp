// Tests of analysis records in db::results_store (verdicts, effects, bisect steps, change points,
// references), the history series and the summary views.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "db/error.hpp"
#include "db/results_store.hpp"
#include "db/statement.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using testing::at;
using testing::make_experiment;
using testing::make_machine;
using testing::make_sample;
using testing::temp_dir;

class analysis_test : public ::testing::Test {
 protected:
  analysis_test() : store_(dir_ / "results.db") {
    machine_ = store_.upsert_machine(make_machine("fp"));
    store_.create_experiment(make_experiment("r-1", machine_, 10));
  }

  static verdict_record make_verdict(std::string metric, verdict_kind kind, int created) {
    verdict_record v;
    v.variant = "A1=4+B1";
    v.baseline = "base";
    v.metric = std::move(metric);
    v.n = 12;
    v.baseline_median = 3.91;
    v.candidate_median = 4.15;
    v.ratio = 1.062;
    v.ci_low = 1.051;
    v.ci_high = 1.074;
    v.p_value = 0.0002;
    v.p_adjusted = 0.001;
    v.verdict = kind;
    v.created_at = at(created);
    return v;
  }

  temp_dir dir_;
  results_store store_;
  std::int64_t machine_ = 0;
};

TEST_F(analysis_test, replace_verdicts_replaces_the_whole_set) {
  std::vector<verdict_record> first{make_verdict("proof.total_s", verdict_kind::slower, 1),
                                    make_verdict("synth.prove_s", verdict_kind::same, 1)};
  first[1].immaterial = true;
  first[1].note = "below the noise floor";
  first[1].hl_ratio = 1.001;
  store_.replace_verdicts("r-1", first);
  auto read = store_.list_verdicts("r-1");
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].metric, "proof.total_s");
  EXPECT_EQ(read[0].experiment_id, "r-1");
  EXPECT_EQ(read[0].ratio, 1.062);
  EXPECT_EQ(read[0].hl_ratio, std::nullopt);
  EXPECT_EQ(read[0].verdict, verdict_kind::slower);
  EXPECT_EQ(read[0].created_at, at(1));
  EXPECT_TRUE(read[1].immaterial);
  EXPECT_EQ(read[1].note, "below the noise floor");
  EXPECT_EQ(read[1].hl_ratio, 1.001);

  std::vector<verdict_record> second{make_verdict("proof.total_s", verdict_kind::inconclusive, 2)};
  store_.replace_verdicts("r-1", second);
  read = store_.list_verdicts("r-1");
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].verdict, verdict_kind::inconclusive);
}

TEST_F(analysis_test, a_verdicts_details_round_trip_and_a_plain_row_stores_null) {
  std::vector<verdict_record> rows{make_verdict("planted.total_s", verdict_kind::same, 1),
                                   make_verdict("planted.work_s", verdict_kind::same, 1)};
  rows[0].details = {{"layouts", {{"baseline", 4}, {"candidate", 4}, {"share", 0.71}, {"within_sd", 0.012}}}};
  store_.replace_verdicts("r-1", rows);
  const auto read = store_.list_verdicts("r-1");
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].details, rows[0].details);
  EXPECT_TRUE(read[1].details.empty());
  statement q{store_.connection(), "SELECT count(*) FROM verdict WHERE details IS NULL"};
  ASSERT_TRUE(q.step());
  EXPECT_EQ(q.column_int64(0), 1);  // not '{}' on every plain row
}

TEST_F(analysis_test, a_verdict_without_a_creation_time_gets_the_time_of_writing) {
  auto v = make_verdict("proof.total_s", verdict_kind::same, 0);
  v.created_at = {};
  const auto before = std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now());
  store_.replace_verdicts("r-1", std::span(&v, 1));
  const auto after = std::chrono::system_clock::now();
  const auto stamped = store_.list_verdicts("r-1").at(0).created_at;
  EXPECT_GE(stamped, before);
  EXPECT_LE(stamped, after);
}

TEST_F(analysis_test, a_failing_replacement_keeps_the_old_verdicts) {
  std::vector<verdict_record> first{make_verdict("proof.total_s", verdict_kind::slower, 1)};
  store_.replace_verdicts("r-1", first);
  std::vector<verdict_record> duplicate(2, make_verdict("a_s", verdict_kind::same, 2));
  EXPECT_THROW(store_.replace_verdicts("r-1", duplicate), error);
  auto read = store_.list_verdicts("r-1");
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].metric, "proof.total_s");
}

TEST_F(analysis_test, latest_verdict_view_picks_the_newest_per_variant_and_metric) {
  store_.create_experiment(make_experiment("r-2", machine_, 20));
  std::vector<verdict_record> old{make_verdict("proof.total_s", verdict_kind::slower, 1)};
  std::vector<verdict_record> newer{make_verdict("proof.total_s", verdict_kind::same, 2)};
  store_.replace_verdicts("r-2", newer);
  store_.replace_verdicts("r-1", old);
  statement q{store_.connection(), "SELECT experiment_id, verdict FROM v_latest_verdict"};
  ASSERT_TRUE(q.step());
  EXPECT_EQ(q.column_text(0), "r-2");
  EXPECT_EQ(q.column_text(1), "same");
  EXPECT_FALSE(q.step());
}

TEST_F(analysis_test, effects_and_bisect_steps_round_trip) {
  std::vector<effect_record> effects{{"", "proof.total_s", "A1=4", 0.062, 0.005, 0.05, 0.07, 1e-6, 1e-5, std::nullopt},
                                     {"", "proof.total_s", "A1=4*A2", 0.03, std::nullopt, 0.01, 0.05, 0.01, 0.02, "rejected"}};
  store_.replace_effects("r-1", effects);
  auto read = store_.list_effects("r-1");
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].term, "A1=4");
  EXPECT_EQ(read[0].experiment_id, "r-1");
  EXPECT_EQ(read[1].se, std::nullopt);
  EXPECT_EQ(read[1].estimate, 0.03);
  EXPECT_EQ(read[0].role, std::nullopt);
  EXPECT_EQ(read[1].role, "rejected");
  effects[0].role = "a suspect";
  EXPECT_THROW(store_.replace_effects("r-1", effects), error) << "a role is culprit, offset or rejected";
  EXPECT_EQ(store_.list_effects("r-1").size(), 2u) << "the failed write left the earlier rows";
  effects[0].role.reset();
  store_.replace_effects("r-1", std::span(effects).first(1));
  EXPECT_EQ(store_.list_effects("r-1").size(), 1u);

  store_.insert_bisect_step({"r-1", 0, "base", "A1=4+A2+B1", verdict_kind::slower, 12, 1.19, std::nullopt});
  store_.insert_bisect_step({"r-1", 1, "base", "B1", std::nullopt, 0, std::nullopt, "build failed: skipped"});
  auto steps = store_.list_bisect_steps("r-1");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].verdict, verdict_kind::slower);
  EXPECT_EQ(steps[0].rounds, 12);
  EXPECT_EQ(steps[1].verdict, std::nullopt);
  EXPECT_EQ(steps[1].note, "build failed: skipped");
  EXPECT_THROW(store_.insert_bisect_step({"r-1", 1, "a", "b", std::nullopt, 0, std::nullopt, std::nullopt}), error);
}

TEST_F(analysis_test, a_redetected_changepoint_keeps_its_review_state) {
  changepoint_record c{0, "base", "proof.total_s", "r-1", at(10), 0.06, 0.0004, changepoint_state::new_, std::nullopt};
  const auto id = store_.record_changepoint(c);
  store_.set_changepoint_state(id, changepoint_state::acknowledged, "known: A1 landed");
  c.magnitude = 0.061;
  EXPECT_EQ(store_.record_changepoint(c), id);

  auto read = store_.list_changepoints("base");
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].state, changepoint_state::acknowledged);
  EXPECT_EQ(read[0].note, "known: A1 landed");
  EXPECT_EQ(read[0].magnitude, 0.061);
  EXPECT_EQ(read[0].at_experiment, "r-1");
  EXPECT_EQ(read[0].at_time, at(10));
  EXPECT_TRUE(store_.list_changepoints("base", "synth.prove_s").empty());
  EXPECT_EQ(store_.list_changepoints().size(), 1u);
  try {
    store_.set_changepoint_state(id + 1, changepoint_state::fixed);
    FAIL() << "updated a missing change point";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), SQLITE_NOTFOUND);
  }
}

TEST_F(analysis_test, references_upsert_on_label_params_and_metric) {
  reference_record r{0, "cuzk phase-3 baseline", {{"preset", "porep32g"}}, "proof.total_s", 88.9};
  const auto id = store_.upsert_reference(r);
  r.value = 88.0;
  EXPECT_EQ(store_.upsert_reference(r), id);
  r.metric = "proof.gpu_s";
  r.value = 34.0;
  EXPECT_NE(store_.upsert_reference(r), id);
  auto read = store_.list_references();
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].metric, "proof.gpu_s");
  EXPECT_EQ(read[1].value, 88.0);
  EXPECT_EQ(read[1].params.at("preset"), "porep32g");
}

TEST_F(analysis_test, series_has_one_median_per_experiment_from_measured_successful_samples) {
  // r-1: candidate values 4, 1, 3 (median 3); warm-up and failed samples must not count.
  int round = 0;
  for (double v : {4.0, 1.0, 3.0})
    store_.insert_sample(make_sample("r-1", machine_, 1, round++, {{"proof.total_s", v}}));
  auto warmup = make_sample("r-1", machine_, 1, 0, {{"proof.total_s", 100.0}});
  warmup.warmup = true;
  store_.insert_sample(warmup);
  auto failed = make_sample("r-1", machine_, 1, round++, {{"proof.total_s", 200.0}});
  failed.status = sample_status::timeout;
  store_.insert_sample(failed);
  // n-2 (nightly, later): 1, 2, 10, 20 → median 6.
  auto nightly = make_experiment("n-2", machine_, 50);
  nightly.kind = experiment_kind::nightly;
  store_.create_experiment(nightly);
  round = 0;
  for (double v : {20.0, 1.0, 10.0, 2.0})
    store_.insert_sample(make_sample("n-2", machine_, 1, round++, {{"proof.total_s", v}}));

  auto points = store_.series("A1=4+B1", "proof.total_s");
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].experiment_id, "r-1");
  EXPECT_EQ(points[0].n, 3);
  EXPECT_EQ(points[0].median, 3.0);
  EXPECT_EQ(points[0].min, 1.0);
  EXPECT_EQ(points[0].max, 4.0);
  EXPECT_EQ(points[1].experiment_id, "n-2");
  EXPECT_EQ(points[1].kind, experiment_kind::nightly);
  EXPECT_EQ(points[1].started_at, at(50));
  EXPECT_EQ(points[1].median, 6.0);
  EXPECT_EQ(points[1].n, 4);
  auto nightly_only = store_.series("A1=4+B1", "proof.total_s", experiment_kind::nightly);
  ASSERT_EQ(nightly_only.size(), 1u);
  EXPECT_EQ(nightly_only[0].experiment_id, "n-2");
  EXPECT_TRUE(store_.series("base", "proof.total_s").empty());

  // The same numbers as the v_variant_summary view, which ad-hoc queries use.
  statement view{store_.connection(),
                  "SELECT n, median, min, max FROM v_series WHERE variant = 'A1=4+B1' AND metric = 'proof.total_s' "
                  "ORDER BY started_at"};
  for (const series_point& p : points) {
    ASSERT_TRUE(view.step());
    EXPECT_EQ(view.column_int64(0), p.n);
    EXPECT_EQ(view.column_double(1), p.median);
    EXPECT_EQ(view.column_double(2), p.min);
    EXPECT_EQ(view.column_double(3), p.max);
  }
  EXPECT_FALSE(view.step());
}

TEST_F(analysis_test, series_keys_list_variant_metric_pairs_with_measured_samples) {
  store_.insert_sample(make_sample("r-1", machine_, 0, 0, {{"proof.total_s", 1.0}}));
  auto failed = make_sample("r-1", machine_, 1, 0, {{"proof.gpu_s", 1.0}});
  failed.status = sample_status::failed;
  store_.insert_sample(failed);
  store_.insert_sample(make_sample("r-1", machine_, 1, 1, {{"proof.total_s", 1.0}, {"proof.msm_a_s", 0.1}}));
  const std::vector<std::pair<std::string, std::string>> expected{
      {"A1=4+B1", "proof.msm_a_s"}, {"A1=4+B1", "proof.total_s"}, {"base", "proof.total_s"}};
  EXPECT_EQ(store_.series_keys(), expected);
  EXPECT_TRUE(store_.series_keys(experiment_kind::nightly).empty());
}

TEST_F(analysis_test, sample_metric_view_joins_variant_and_experiment) {
  store_.insert_sample(make_sample("r-1", machine_, 0, 0));
  statement q{store_.connection(),
              "SELECT variant, role, experiment_kind, metric, value FROM v_sample_metric ORDER BY metric"};
  ASSERT_TRUE(q.step());
  EXPECT_EQ(q.column_text(0), "base");
  EXPECT_EQ(q.column_text(1), "baseline");
  EXPECT_EQ(q.column_text(2), "run");
  EXPECT_EQ(q.column_text(3), "proof.synthesis_s");
  EXPECT_EQ(q.column_double(4), 0.9);
}

}  // namespace
}  // namespace abtest::db
