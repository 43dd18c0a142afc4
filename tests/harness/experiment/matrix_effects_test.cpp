// Factorial effects of a recorded design below the CLI: one experiment's effects, and `matrix
// --analyze`'s design over its shards' experiments in a real results database, on the simulated source.
#include "harness/experiment/matrix_effects.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "tests/harness/experiment/scenario_store.hpp"

namespace abtest {
namespace {

// A1=4 is 10% slower on proof.total_s, A2 does nothing; noise 1%.
constexpr const char* scenario_text = R"({
  "toggles": [{"id": "A1", "levels": ["0", "1", "2", "4"], "on": "4"}, {"id": "A2"}],
  "metrics": {"proof.total_s": {"base": 2.0, "noise_cv": 0.01, "effects": {"A1=4": 0.0953}}},
  "seed": 5
})";

class matrix_effects_test : public test::scenario_store {
 protected:
  void SetUp() override {
    scenario_store::SetUp();
    path_ = write_scenario("matrix", scenario_text);
    scenario_ = search::load_scenario(path_);
    m_ = manifest_from_scenario(scenario_, path_);
    factors_ = search::differing_factors(search_toggles(m_), {}, parse_variant_spec("all", m_).levels);
    design_ = make_recorded_design(m_, search::make_design("full", 2), factors_);
  }

  // The plan of shard `index` of `count`: base and the design's runs in that shard, 8 rounds.
  run_plan shard_plan(int index, int count) const {
    const auto shard_of = search::balanced_shards(design_.d, count);
    run_plan p;
    p.kind = "matrix";
    p.benchmarks = {"proof"};
    p.rounds = 8;
    p.warmups = 0;
    p.seed = 11 + static_cast<std::uint64_t>(index);
    p.simulate = path_.string();
    for (std::size_t c = 0; c < design_.d.runs.size(); ++c)
      if (c == 0 || shard_of[c] == index)
        p.arms.push_back(arm_plan{design_.keys[c], search::apply({}, factors_, design_.d.runs[c]), c == 0 ? "baseline" : "candidate",
                                  {}, {}, std::nullopt, {}, {}});
    return p;
  }

  std::string run_shard(int index, int count, const std::string& group) {
    nlohmann::json extra = {{"design", design_.json}, {"shard", {{"index", index}, {"count", count}}}};
    if (!group.empty()) extra["group"] = group;
    return measured(scenario_, m_, shard_plan(index, count), extra);
  }

  static const nlohmann::json* effect(const nlohmann::json& metric, const std::string& term) {
    for (const auto& e : metric.at("effects"))
      if (e.at("term") == term) return &e;
    return nullptr;
  }

  std::filesystem::path path_;
  search::scenario scenario_;
  manifest m_;
  std::vector<search::factor> factors_;
  recorded_design design_;
};

TEST_F(matrix_effects_test, the_recorded_design_round_trips_through_json_with_its_keys) {
  ASSERT_EQ(design_.keys.size(), 4u);
  EXPECT_EQ(design_.keys.front(), "base");
  EXPECT_EQ(design_.factors, (std::vector<std::string>{"A1=4", "A2"}));
  const recorded_design again = design_from_json(design_.json);
  EXPECT_EQ(again.keys, design_.keys);
  EXPECT_EQ(again.d.runs, design_.d.runs);
}

TEST_F(matrix_effects_test, one_experiment_finds_the_planted_toggle_and_clears_the_other) {
  const run_plan p = shard_plan(0, 1);
  const std::string id = run_shard(0, 1, "");
  std::vector<std::string> notes;
  const auto samples = store_->list_samples(id);
  const design_effects e = experiment_effects(design_, p, samples, analyze(p, samples), id, {"proof.total_s"}, 0.01, notes);
  EXPECT_TRUE(notes.empty());
  ASSERT_EQ(e.json.size(), 1u);
  const auto* a1 = effect(e.json[0], "A1=4");
  ASSERT_NE(a1, nullptr) << e.json.dump(2);
  EXPECT_TRUE(a1->at("culprit").get<bool>());
  EXPECT_NEAR(a1->at("ratio").get<double>(), 1.1, 0.02);
  if (const auto* a2 = effect(e.json[0], "A2")) {
    EXPECT_FALSE(a2->at("culprit").get<bool>());
  }
  EXPECT_NE(e.tables.find("A1=4"), std::string::npos);
  ASSERT_FALSE(e.records.empty());
  for (const auto& r : e.records) EXPECT_EQ(r.experiment_id, id);
}

TEST_F(matrix_effects_test, a_metric_the_runs_do_not_report_is_a_note_not_an_error) {
  const run_plan p = shard_plan(0, 1);
  const std::string id = run_shard(0, 1, "");
  std::vector<std::string> notes;
  const auto samples = store_->list_samples(id);
  const design_effects e = experiment_effects(design_, p, samples, analyze(p, samples), id, {"proof.nothing_s"}, 0.01, notes);
  EXPECT_TRUE(e.json.empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("proof.nothing_s: no factorial effects — ", 0), 0u) << notes[0];
}

TEST_F(matrix_effects_test, design_values_leave_out_arms_outside_the_design) {
  run_plan p = shard_plan(0, 1);
  p.arms.push_back(arm_plan{"canary", {}, "candidate", {}, {}, std::nullopt, {}, {}});
  const std::string id = measured(scenario_, m_, p, {{"design", design_.json}});
  const auto samples = store_->list_samples(id);
  const search::shard_values v = design_values(design_, p, samples, analyze(p, samples), "proof.total_s");
  EXPECT_EQ(v.configs, (std::vector<std::size_t>{0, 1, 2, 3}));
  ASSERT_EQ(v.y.size(), 4u);
  for (const auto& row : v.y) {
    ASSERT_EQ(row.size(), 8u);
    for (double y : row) EXPECT_NEAR(y, std::log(2.0), 0.15);
  }
}

TEST_F(matrix_effects_test, analyze_design_merges_the_shards_of_a_group_and_stores_the_effects_with_each) {
  const std::string s0 = run_shard(0, 2, "night-1"), s1 = run_shard(1, 2, "night-1");
  const design_analysis a = analyze_design(*store_, {}, "night-1", {"proof.total_s"}, 0.01);
  EXPECT_EQ(a.experiments, (std::vector<std::string>{s0, s1}));
  EXPECT_EQ(a.group, "night-1");
  EXPECT_EQ(a.shards, 2);
  EXPECT_EQ(a.present, (std::set<int>{0, 1}));
  EXPECT_TRUE(a.notes.empty()) << a.notes.front();
  ASSERT_EQ(a.effects.json.size(), 1u);
  const auto* a1 = effect(a.effects.json[0], "A1=4");
  ASSERT_NE(a1, nullptr) << a.effects.json.dump(2);
  EXPECT_TRUE(a1->at("culprit").get<bool>());
  EXPECT_NEAR(a1->at("ratio").get<double>(), 1.1, 0.02);
  // Stored as each member's effects, alike; the newest matrix and its group is the default.
  const auto e0 = store_->list_effects(s0), e1 = store_->list_effects(s1);
  ASSERT_FALSE(e0.empty());
  ASSERT_EQ(e0.size(), e1.size());
  for (std::size_t i = 0; i < e0.size(); ++i) {
    EXPECT_EQ(e0[i].term, e1[i].term);
    EXPECT_DOUBLE_EQ(e0[i].estimate, e1[i].estimate);
  }
  EXPECT_EQ(analyze_design(*store_, {}, "", {"proof.total_s"}, 0.01).experiments, a.experiments);
}

TEST_F(matrix_effects_test, a_missing_shard_is_a_note_and_its_runs_are_not_estimated_as_measured) {
  run_shard(0, 2, "night-2");
  const design_analysis a = analyze_design(*store_, {}, "night-2", {"proof.total_s"}, 0.01);
  EXPECT_EQ(a.present, (std::set<int>{0}));
  ASSERT_FALSE(a.notes.empty());
  EXPECT_EQ(a.notes[0], "shard 1/2 is missing — merge its results file with `abtest db merge`");
}

TEST_F(matrix_effects_test, bad_members_are_usage_errors_that_store_nothing) {
  const std::string s0 = run_shard(0, 2, "night-3");
  const auto expect_usage = [&](const std::vector<std::string>& ids, const std::string& group, const std::string& says) {
    try {
      analyze_design(*store_, ids, group, {"proof.total_s"}, 0.01);
      ADD_FAILURE() << "no error for " << says;
    } catch (const user_error& e) {
      EXPECT_EQ(e.code(), exit_code::usage);
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  expect_usage({"no-such"}, "", "no such experiment");
  expect_usage({s0, s0}, "", "two experiments are shard 0/2");
  expect_usage({}, "night-9", "no matrix experiment records this group");
  const std::string plain = measured(scenario_, m_, shard_plan(0, 1));  // no design recorded
  expect_usage({plain}, "", "not a matrix experiment");
  EXPECT_TRUE(store_->list_effects(s0).empty());
}

}  // namespace
}  // namespace abtest
