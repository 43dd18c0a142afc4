// The A/B behind `history --confirm` below the CLI: two simulated nights in a real results database,
// a change the A/B confirms, one it refutes, the A/B reused, and the nights it cannot compare.
#include "harness/experiment/history_confirm.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "harness/core/errors.hpp"
#include "tests/harness/experiment/scenario_store.hpp"

namespace abtest {
namespace {

// A night's machine: A1=4 costs `effect` (ln ratio) on proof.total_s; little noise, so that the
// seeded A/B decides the same way every time.
std::string night_scenario(double effect) {
  return R"({"toggles": [{"id": "A1", "levels": ["0", "4"], "on": "4"}],
             "metrics": {"proof.total_s": {"base": 2.0, "noise_cv": 0.002, "effects": {"A1=4": )" +
         std::to_string(effect) + "}}}, \"seed\": 3}";
}

class history_confirm_test : public test::scenario_store {
 protected:
  // A nightly experiment that ran base and A1=4 on `scenario` (nothing measured: the A/B reads its plan).
  std::string night(const std::filesystem::path& scenario, const std::string& simulate) {
    const search::scenario s = search::load_scenario(scenario);
    const manifest m = manifest_from_scenario(s, scenario);
    run_plan p;
    p.kind = "nightly";
    p.benchmarks = {"proof"};
    p.rounds = 4;
    p.warmups = 0;
    p.seed = 42;
    p.simulate = simulate;
    p.arms = {arm_plan{"base", {}, "baseline", {}, {}, std::nullopt, {}, {}},
              arm_plan{"A1=4", {{"A1", "4"}}, "candidate", {}, {}, std::nullopt, {}, {}}};
    return create_experiment(*store_, &m, p, "test", current_machine(*store_));
  }

  confirm_request request(const std::string& before, const std::string& after) {
    db::changepoint_record cp{0, "A1=4", "proof.total_s", after, std::chrono::system_clock::now(), 0.2, 0.001,
                              db::changepoint_state::new_, std::nullopt};
    cp.id = store_->record_changepoint(cp);
    confirm_request r;
    r.changepoint_id = cp.id;
    r.variant = "A1=4";
    r.metric = "proof.total_s";
    r.before = before;
    r.after = after;
    r.command_line = "test";
    return r;
  }

  std::string note_of(std::int64_t id) {
    for (const auto& cp : store_->list_changepoints())
      if (cp.id == id) return cp.note.value_or("");
    return "(no such change point)";
  }

  std::string simulated_night(const std::string& name, double effect) {
    const auto path = write_scenario(name, night_scenario(effect));
    return night(path, path.string());
  }
};

TEST_F(history_confirm_test, a_real_change_is_confirmed_slower_and_noted_on_the_change_point) {
  const confirm_request r = request(simulated_night("before", 0.0), simulated_night("after", 0.1823));  // 20% slower
  const confirmation c = confirm_changepoint(*store_, r, ctx_);
  EXPECT_EQ(c.verdict, "slower");
  ASSERT_TRUE(c.ratio);
  EXPECT_NEAR(*c.ratio, 1.2, 0.01);
  ASSERT_TRUE(c.ci_low && c.ci_high);
  EXPECT_GT(*c.ci_low, 1.0);
  ASSERT_FALSE(c.experiment.empty());
  const auto e = store_->find_experiment(c.experiment);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->status, db::experiment_status::complete);
  EXPECT_EQ(e->config.at("confirms").at("changepoint"), r.changepoint_id);
  EXPECT_EQ(note_of(r.changepoint_id).rfind("A/B " + c.experiment + ": slower, ratio 1.", 0), 0u) << note_of(r.changepoint_id);
}

TEST_F(history_confirm_test, a_change_of_the_machine_alone_is_refuted) {
  const confirm_request r = request(simulated_night("before", 0.0), simulated_night("after", 0.0));
  const confirmation c = confirm_changepoint(*store_, r, ctx_);
  EXPECT_EQ(c.verdict, "same");
  ASSERT_TRUE(c.ratio);
  EXPECT_NEAR(*c.ratio, 1.0, 0.01);
  EXPECT_EQ(note_of(r.changepoint_id).rfind("A/B " + c.experiment + ": same", 0), 0u);
}

TEST_F(history_confirm_test, the_same_change_point_and_nights_reuse_the_completed_a_b) {
  const confirm_request r = request(simulated_night("before", 0.0), simulated_night("after", 0.1823));
  const confirmation first = confirm_changepoint(*store_, r, ctx_);
  const auto experiments = store_->list_experiments().size();
  const confirmation again = confirm_changepoint(*store_, r, ctx_);
  EXPECT_EQ(again.experiment, first.experiment);
  EXPECT_EQ(again.verdict, first.verdict);
  EXPECT_EQ(again.ratio, first.ratio);
  EXPECT_EQ(store_->list_experiments().size(), experiments) << "nothing measured again";
}

TEST_F(history_confirm_test, nights_it_cannot_compare_are_a_note_and_nothing_is_measured) {
  const auto path = write_scenario("real", night_scenario(0.0));
  const std::string simulated = simulated_night("before", 0.0), real = night(path, "");
  const confirm_request mixed = request(simulated, real);
  const confirmation c = confirm_changepoint(*store_, mixed, ctx_);
  EXPECT_EQ(c.verdict, "");
  EXPECT_EQ(c.experiment, "");
  EXPECT_EQ(c.note, "one night was simulated and the other was not — nothing to compare");
  EXPECT_EQ(note_of(mixed.changepoint_id), "A/B not run: " + c.note);

  const std::string gone = simulated_night("gone", 0.1);
  std::filesystem::remove(dir_ / "gone.json");
  const confirmation g = confirm_changepoint(*store_, request(simulated, gone), ctx_);
  EXPECT_EQ(g.verdict, "");
  EXPECT_EQ(g.note, "the scenario file " + (dir_ / "gone.json").string() + " is gone");
  EXPECT_EQ(store_->list_experiments().size(), 3u) << "only the three nights";
}

TEST_F(history_confirm_test, a_night_without_the_variant_is_a_usage_error) {
  confirm_request r = request(simulated_night("before", 0.0), simulated_night("after", 0.1));
  r.variant = "A1=9";
  EXPECT_THROW(confirm_changepoint(*store_, r, ctx_), user_error);
}

}  // namespace
}  // namespace abtest
