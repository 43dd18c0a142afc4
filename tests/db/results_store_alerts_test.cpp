// Tests of alerts in db::results_store (design §9.1): one per change, sibling metrics grouped, a
// second sighting attached, triage events with notes, the open-alert view, and rows from v5.
#include <gtest/gtest.h>

#include "db/error.hpp"
#include "db/migrations.hpp"
#include "db/results_store.hpp"
#include "db/statement.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using testing::make_experiment;
using testing::make_machine;
using testing::temp_dir;

alert_sighting sighting(std::string metric, std::string change, double ratio = 1.08,
                        alert_source source = alert_source::pr, std::string subject = "feature/x") {
  alert_sighting s;
  s.source = source;
  s.subject = std::move(subject);
  s.metric = std::move(metric);
  s.benchmark = s.metric.substr(0, s.metric.find('.'));
  s.change = std::move(change);
  s.ratio = ratio;
  s.ci_low = ratio - 0.01;
  s.ci_high = ratio + 0.01;
  s.before_median = 10.0;
  s.after_median = 10.0 * ratio;
  return s;
}

class alerts_test : public ::testing::Test {
 protected:
  alerts_test() : store_(dir_ / "results.db") {
    const auto machine = store_.upsert_machine(make_machine("fp"));
    store_.create_experiment(make_experiment("r-1", machine, 10));
    store_.create_experiment(make_experiment("r-2", machine, 20));
  }
  std::int64_t count(const char* table) {
    statement q{store_.connection(), std::string("SELECT count(*) FROM ") + table};
    q.step();
    return q.column_int64(0);
  }
  temp_dir dir_;
  results_store store_;
};

TEST_F(alerts_test, the_metrics_of_one_change_are_one_alert) {
  const std::vector<alert_sighting> s{sighting("proof.total_s", "a1..b1"), sighting("proof.msm_h_s", "a1..b1", 1.2),
                                      sighting("synth.synthesis_s", "a1..b1")};
  const auto ids = store_.record_sightings(s);
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids[0], ids[1]) << "two phases of one proof are siblings";
  EXPECT_NE(ids[0], ids[2]) << "another benchmark is another alert";
  const auto proof = store_.find_alert(ids[0]);
  ASSERT_TRUE(proof);
  EXPECT_EQ(proof->state, alert_state::new_);
  ASSERT_EQ(proof->metrics.size(), 2u);
  EXPECT_EQ(proof->metrics[0].metric, "proof.msm_h_s");
  EXPECT_DOUBLE_EQ(proof->metrics[0].ratio, 1.2);
  EXPECT_EQ(proof->metrics[0].sightings, 1);
  ASSERT_EQ(proof->events.size(), 1u);
  EXPECT_FALSE(proof->events[0].from);
  EXPECT_NE(proof->events[0].note.find("a1..b1"), std::string::npos);
}

TEST_F(alerts_test, a_second_sighting_attaches_to_the_open_alert) {
  auto first = sighting("proof.total_s", "a1..b1");
  first.experiment_id = "r-1";
  const auto id = store_.record_sightings(std::vector{first}).front();
  // The same change seen again by another experiment, and the PR pushed again (a new head) with the
  // regression still there and one more phase: both join the open alert.
  auto again = first;
  again.experiment_id = "r-2";
  auto pushed = sighting("proof.total_s", "a1..c2", 1.07);
  auto sibling = sighting("proof.ntt_s", "a1..c2", 1.3);
  EXPECT_EQ(store_.record_sightings(std::vector{again}).front(), id);
  const auto later = store_.record_sightings(std::vector{pushed, sibling});
  EXPECT_EQ(later[0], id);
  EXPECT_EQ(later[1], id);
  // The same sighting recorded twice (a history re-run reusing its A/B) is one sighting.
  store_.record_sightings(std::vector{again});
  EXPECT_EQ(count("alert"), 1);
  const auto a = store_.find_alert(id);
  ASSERT_EQ(a->metrics.size(), 2u);
  EXPECT_EQ(a->metrics[1].metric, "proof.total_s");
  EXPECT_EQ(a->metrics[1].sightings, 3);
  EXPECT_DOUBLE_EQ(a->metrics[1].ratio, 1.08) << "an alert keeps the figures it opened with";
}

TEST_F(alerts_test, a_closed_alert_is_not_reopened_by_a_new_change) {
  const auto id = store_.record_sightings(std::vector{sighting("proof.total_s", "a1..b1")}).front();
  store_.set_alert_state(id, alert_state::invalid, "the runner was throttled");
  const auto next = store_.record_sightings(std::vector{sighting("proof.total_s", "a1..c2")}).front();
  EXPECT_NE(next, id) << "an invalid alert does not collect new sightings";
  // But its own change seen again stays with it, in the state it was given.
  EXPECT_EQ(store_.record_sightings(std::vector{sighting("proof.total_s", "a1..b1")}).front(), id);
  EXPECT_EQ(store_.find_alert(id)->state, alert_state::invalid);
  // Another subject or source is another alert.
  EXPECT_NE(store_.record_sightings(std::vector{sighting("proof.total_s", "a1..c2", 1.08, alert_source::pr, "other")}).front(), next);
  EXPECT_NE(store_.record_sightings(std::vector{sighting("proof.total_s", "a1..c2", 1.08, alert_source::nightly)}).front(), next);
}

TEST_F(alerts_test, every_state_change_is_an_event_with_a_note) {
  const auto id = store_.record_sightings(std::vector{sighting("proof.total_s", "a1..b1")}).front();
  store_.set_alert_state(id, alert_state::acknowledged, "looking at it");
  store_.set_alert_state(id, alert_state::expected, "B1 trades registration for copies");
  const auto a = store_.find_alert(id);
  EXPECT_EQ(a->state, alert_state::expected);
  ASSERT_EQ(a->events.size(), 3u);
  EXPECT_EQ(a->events[1].from, alert_state::new_);
  EXPECT_EQ(a->events[1].to, alert_state::acknowledged);
  EXPECT_EQ(a->events[2].from, alert_state::acknowledged);
  EXPECT_EQ(a->events[2].note, "B1 trades registration for copies");
  EXPECT_THROW(store_.set_alert_state(id, alert_state::expected, "again"), error) << "already expected";
  EXPECT_THROW(store_.set_alert_state(id, alert_state::invalid, ""), error) << "a note is required";
  EXPECT_THROW(store_.set_alert_state(id + 100, alert_state::invalid, "x"), error) << "unknown id";
  EXPECT_EQ(store_.find_alert(id)->events.size(), 3u) << "a refused change records nothing";
}

TEST_F(alerts_test, open_alerts_are_new_acknowledged_or_expected) {
  const auto a = store_.record_sightings(std::vector{sighting("proof.total_s", "c1")}).front();
  const auto b = store_.record_sightings(std::vector{sighting("synth.synthesis_s", "c1")}).front();
  const auto c = store_.record_sightings(std::vector{sighting("other.total_s", "c1")}).front();
  store_.set_alert_state(b, alert_state::expected, "accepted");
  store_.set_alert_state(c, alert_state::fixed, "reverted");
  std::vector<std::int64_t> open;
  for (const auto& x : store_.list_alerts(std::nullopt, true)) open.push_back(x.id);
  EXPECT_EQ(open, (std::vector<std::int64_t>{b, a}));
  ASSERT_EQ(store_.list_alerts(alert_state::fixed).size(), 1u);
  EXPECT_EQ(store_.list_alerts().size(), 3u);
  EXPECT_EQ(count("v_open_alert"), 2);
  EXPECT_THROW(store_.record_sightings(std::vector{sighting("proof.total_s", "")}), error) << "a change is required";
}

TEST(alerts_migration, a_v5_file_takes_alerts_and_keeps_its_rows) {
  temp_dir dir;
  {
    database old{dir / "v5.db"};
    migrate(old, 5);
    old.exec(
        "INSERT INTO machine(fingerprint, hostname, cpu_model) VALUES ('fp', 'h', 'cpu');"
        "INSERT INTO changepoint(variant, metric, at_time, magnitude) VALUES ('A1', 'proof.total_s', "
        "'2026-12-01T00:00:00.000Z', 0.08);");
  }
  results_store store{dir / "v5.db"};
  EXPECT_EQ(store.connection().user_version(), latest_schema_version());
  EXPECT_EQ(store.list_changepoints().size(), 1u);
  const auto id = store.record_sightings(std::vector{sighting("proof.total_s", "n-1", 1.08, alert_source::nightly, "A1")});
  EXPECT_EQ(store.find_alert(id.front())->subject, "A1");
}

}  // namespace
}  // namespace abtest::db
