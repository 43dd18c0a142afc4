// The experiment library on the simulated source (design §12): no CLI, no build, a real results
// database — samples recorded as they come, one analysis per experiment stored as its verdicts,
// progress reported through the context, and the search oracle over it.
#include "harness/experiment/experiment.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "harness/experiment/oracle.hpp"
#include "harness/experiment/simulation.hpp"
#include "tests/harness/experiment/build_rows.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

// A1=4 is 10% slower on proof.total_s; noise 1%.
constexpr const char* scenario_text = R"({
  "toggles": [{"id": "A1", "levels": ["0", "1", "2", "4"], "on": "4"}, {"id": "A2"}],
  "metrics": {"proof.total_s": {"base": 2.0, "noise_cv": 0.01, "effects": {"A1=4": 0.0953}}},
  "seed": 5
})";

class simulated_experiment : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("abtest-experiment-test-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
    scenario_path_ = dir_ / "scenario.json";
    std::ofstream(scenario_path_) << scenario_text;
    scenario_ = search::load_scenario(scenario_path_);
    m_ = manifest_from_scenario(scenario_, scenario_path_);
    store_.emplace(dir_ / "results.db");
    ctx_.on_progress = [this](const progress& p) { events_.push_back(p); };
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  run_plan plan(int rounds) const {
    run_plan p;
    p.arms = {arm_plan{"base", {}, "baseline", {}, {}, std::nullopt, {}, {}},
              arm_plan{"A1=4", {{"A1", "4"}}, "candidate", {}, {}, std::nullopt, {}, {}}};
    p.benchmarks = {"proof"};
    p.rounds = rounds;
    p.warmups = 1;
    p.seed = 17;
    p.simulate = scenario_path_.string();
    return p;
  }
  // An oracle's settings over the simulated scenario: fixed rounds, proof.total_s.
  oracle_settings settings(int rounds, int warmups, std::uint64_t seed) const {
    oracle_settings s;
    s.metric = "proof.total_s";
    s.fixed_rounds = rounds;
    s.warmups = warmups;
    s.seed = seed;
    s.simulate = scenario_path_.string();
    s.scenario = &scenario_;
    s.command_line = "experiment_test";
    return s;
  }
  std::string create(const run_plan& p) { return create_experiment(*store_, &m_, p, "experiment_test", current_machine(*store_)); }
  std::vector<std::string> milestones() const {
    std::vector<std::string> out;
    for (const auto& e : events_)
      if (e.what == progress::kind::round && e.milestone) out.push_back(e.text);
    return out;
  }

  fs::path dir_, scenario_path_;
  search::scenario scenario_;
  manifest m_;
  std::optional<db::results_store> store_;
  experiment_context ctx_;
  std::vector<progress> events_;
};

TEST_F(simulated_experiment, execute_records_every_sample_analyses_once_and_stores_the_verdicts) {
  const run_plan p = plan(6);
  const std::string id = create(p);
  std::vector<sample> samples;
  simulated_source source(scenario_, p);
  const execution e = execute(*store_, m_, p, id, source, samples, ctx_);

  EXPECT_EQ(samples.size(), 14u);  // 2 arms × (1 warm-up + 6 rounds)
  // One sample type from the source to the store: what the scheduler keeps is what the store reads back.
  EXPECT_TRUE(store_->list_samples(id) == samples);
  EXPECT_EQ(e.schedule.rounds_done, 6);
  EXPECT_FALSE(e.schedule.interrupted);
  const verdict_row* total = nullptr;
  for (const auto& r : e.analysis.rows)
    if (r.variant == "A1=4" && r.metric == "proof.total_s") total = &r;
  ASSERT_NE(total, nullptr);
  EXPECT_EQ(total->verdict, stats::verdict::slower);
  EXPECT_NEAR(total->primary.ratio(), 1.1, 0.02);
  // What execute returns is what it stored: the experiment's verdicts, and complete.
  const auto stored = store_->list_verdicts(id);
  ASSERT_EQ(stored.size(), e.analysis.rows.size());
  for (const auto& v : stored)
    if (v.variant == "A1=4" && v.metric == "proof.total_s") {
      EXPECT_DOUBLE_EQ(*v.ratio, total->primary.ratio());
    }
  EXPECT_EQ(store_->find_experiment(id)->status, db::experiment_status::complete);

  // Progress: one event per sample, one milestone per round (the warm-up round too), then idle.
  EXPECT_EQ(events_.size(), 15u);
  EXPECT_EQ(events_.back().what, progress::kind::idle);
  const auto lines = milestones();
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0].rfind("warm-up 1/1 · ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("round 1/6 · ", 0), 0u) << lines[1];
  EXPECT_NE(lines[6].find(" · proof · ETA "), std::string::npos) << lines[6];
}

TEST_F(simulated_experiment, measure_leaves_the_verdicts_to_conclude_and_adds_only_the_missing_rounds) {
  run_plan p = plan(3);
  const std::string id = create(p);
  std::vector<sample> samples;
  {
    simulated_source source(scenario_, p);
    const schedule_result s = measure(*store_, m_, p, id, source, samples, ctx_);
    EXPECT_EQ(s.rounds_done, 3);
  }
  EXPECT_EQ(samples.size(), 8u);
  EXPECT_TRUE(store_->list_verdicts(id).empty());
  EXPECT_EQ(store_->find_experiment(id)->status, db::experiment_status::running);

  // One round more (as the oracle's adaptive rounds do): only its two samples run.
  p.rounds = 4;
  events_.clear();
  {
    simulated_source source(scenario_, p);
    measure(*store_, m_, p, id, source, samples, ctx_);
  }
  EXPECT_EQ(samples.size(), 10u);
  EXPECT_EQ(store_->list_samples(id).size(), 10u);
  const auto lines = milestones();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("round 4/4 · ", 0), 0u) << lines[0];

  conclude(*store_, id, analyze(p, samples), false);
  EXPECT_FALSE(store_->list_verdicts(id).empty());
  EXPECT_EQ(store_->find_experiment(id)->status, db::experiment_status::complete);
}

TEST_F(simulated_experiment, the_oracle_compares_on_simulated_samples_and_keeps_the_analysis_it_stored) {
  const oracle_settings s = settings(6, 0, 3);
  experiment_oracle oracle(*store_, m_, ctx_, s, [](const search::levels& l) {
    variant v;
    for (const auto& [id, level] : l)
      if (!(id == "A1" && level == "0") && !(id == "A2" && level == "OFF")) v.levels[id] = level;
    return std::optional<arm_plan>(arm_plan{v.levels.empty() ? "base" : "A1=4", v.levels, "", {}, {}, std::nullopt, {}, {}});
  });
  const search::comparison c = oracle.compare({{"A1", "0"}, {"A2", "OFF"}}, {{"A1", "4"}, {"A2", "OFF"}}, {0.01, 0.05, 0});
  EXPECT_EQ(c.verdict, stats::verdict::slower);
  EXPECT_EQ(c.rounds, 6);
  ASSERT_EQ(oracle.steps().size(), 1u);
  const std::string id = oracle.steps()[0].experiment_id;
  EXPECT_EQ(store_->find_experiment(id)->status, db::experiment_status::complete);
  EXPECT_FALSE(store_->list_verdicts(id).empty());
  EXPECT_EQ(oracle.runs(), 12);

  const arm_set_result r = oracle.run_arms({arm_plan{"base", {}, "", {}, {}, std::nullopt, {}, {}},
                                            arm_plan{"A1=4", {{"A1", "4"}}, "", {}, {}, std::nullopt, {}, {}}},
                                           4, "matrix");
  EXPECT_EQ(store_->list_verdicts(r.experiment_id).size(), r.analysis.rows.size());
  ASSERT_EQ(r.log_values.size(), 2u);
  ASSERT_EQ(r.log_values[1].size(), 4u);
  EXPECT_NEAR(r.log_values[1][0] - r.log_values[0][0], 0.0953, 0.05);
}

// A matrix that adds rounds right after its first ones (search::matrix_decided) runs them without
// warm-ups: its binaries have just run. After a comparison in between, a matrix warms up again.
TEST_F(simulated_experiment, rounds_a_matrix_adds_at_once_skip_the_warm_ups) {
  const oracle_settings s = settings(3, 1, 5);
  experiment_oracle oracle(*store_, m_, ctx_, s, [](const search::levels& l) {
    const bool on = l.contains("A1") && l.at("A1") == "4";
    return std::optional<arm_plan>(arm_plan{on ? "A1=4" : "base", on ? std::map<std::string, std::string>{{"A1", "4"}} : std::map<std::string, std::string>{}, "", {}, {}, std::nullopt, {}, {}});
  });
  const std::vector<search::levels> configs{{{"A1", "0"}}, {{"A1", "4"}}};
  const auto warm_ups = [&] {
    int n = 0;
    for (const sample& x : store_->list_samples(oracle.steps().back().experiment_id)) n += x.warmup;
    return n;
  };
  oracle.run_matrix(configs, 2);
  EXPECT_EQ(warm_ups(), 2);
  const search::matrix_result more = oracle.run_matrix(configs, 2);
  EXPECT_EQ(warm_ups(), 0);
  EXPECT_EQ(more.runs, 4);
  oracle.compare(configs[0], configs[1], {0.01, 0.05, 0});
  oracle.run_matrix(configs, 2);
  EXPECT_EQ(warm_ups(), 2);
}

TEST_F(simulated_experiment, last_build_seconds_is_the_newest_ok_build_of_the_variant_on_this_machine) {
  const std::int64_t here = current_machine(*store_);
  db::machine_record other;
  other.fingerprint = "another-host";
  other.hostname = "elsewhere";
  const std::int64_t there = store_->upsert_machine(other);
  auto build = [&](const std::string& key, double seconds, db::build_status status, std::int64_t machine, bool configured) {
    store_->insert_build(test::build_row(dir_, key, seconds, status, machine, configured));
  };
  EXPECT_FALSE(last_build_seconds(*store_, "base", here, true));
  build("base", 40.0, db::build_status::ok, here, true);    // the first: configured and built whole
  build("base", 12.0, db::build_status::ok, here, false);   // incremental
  build("base", 3.0, db::build_status::failed, here, false);  // a failed build says little of the next
  build("base", 5.0, db::build_status::ok, there, false);     // nor does another machine's
  build("A1=4", 20.0, db::build_status::ok, here, true);
  EXPECT_DOUBLE_EQ(*last_build_seconds(*store_, "base", here, false), 12.0);
  EXPECT_DOUBLE_EQ(*last_build_seconds(*store_, "base", here, true), 40.0);  // a fresh folder: like the first
  // With no build of the same kind, the newest of the other.
  EXPECT_DOUBLE_EQ(*last_build_seconds(*store_, "A1=4", here, false), 20.0);
  EXPECT_FALSE(last_build_seconds(*store_, "A2", here, true));
}

}  // namespace
}  // namespace abtest
