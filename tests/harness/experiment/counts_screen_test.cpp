// Bisect's counts screen below the CLI: arms stood in for builds, counts written into a real results
// database as Valgrind's would be — which toggles are screened out, which stay timed, and the blocks.
#include "harness/experiment/counts_screen.hpp"

#include <gtest/gtest.h>

#include "harness/core/variant.hpp"
#include "harness/counts/count_set.hpp"
#include "tests/harness/experiment/scenario_store.hpp"

namespace abtest {
namespace {

// Four toggles: A1=4 adds instructions, A2 changes nothing counted, B1 and B2 add work only together.
constexpr const char* toggles_text = R"({
  "toggles": [{"id": "A1", "levels": ["0", "1", "4"], "on": "4"}, {"id": "A2"}, {"id": "B1"}, {"id": "B2"}],
  "metrics": {"proof.total_s": {"base": 2.0, "noise_cv": 0.01}},
  "seed": 1
})";

class counts_screen_test : public test::scenario_store {
 protected:
  void SetUp() override {
    scenario_store::SetUp();
    const auto path = write_scenario("toggles", toggles_text);
    m_ = manifest_from_scenario(search::load_scenario(path), path);
    q_ = {search_toggles(m_), {}, parse_variant_spec("all", m_).levels, *arm({}), "proof"};
  }

  bool on(const search::levels& l, const std::string& id) const { return l.count(id) && l.at(id) != "0"; }

  // What Valgrind would count for a configuration.
  counts::count_set counted(const search::levels& l) const {
    counts::count_set c;
    c.totals["Ir"] = 1'000'000 + (on(l, "A1") ? 300'000 : 0) + (on(l, "B1") && on(l, "B2") ? 50'000 : 0);
    c.totals["alloc_bytes"] = 4096;
    c.functions["run"] = {"run", "run.cpp", {{"Ir", c.totals["Ir"]}}};
    c.cache_config = "I1 cache: 32768 B";
    c.valgrind_version = "valgrind-3.19.0";
    return c;
  }

  // The arm of a configuration; `broken` (a toggle id) does not build.
  std::optional<arm_plan> arm(const search::levels& l) const {
    if (!broken_.empty() && on(l, broken_)) return std::nullopt;
    return arm_plan{variant_key(l, m_), l, "candidate", {}, "digest-" + variant_key(l, m_), std::nullopt, {}, {}};
  }

  // One counting experiment of `arms`, each arm's counts stored as measure_counts would.
  std::string count(const std::vector<arm_plan>& arms, const std::string& role) {
    roles_.push_back(role);
    run_plan p;
    p.kind = "bisect";
    p.arms = arms;
    p.benchmarks = {"proof"};
    const std::string id = create_experiment(*store_, &m_, p, "test", current_machine(*store_), {{"role", role}});
    for (std::size_t i = 0; i < arms.size(); ++i) {
      db::counts_record r;
      r.experiment_id = id;
      r.arm_idx = static_cast<int>(i);
      r.benchmark = "proof";
      r.counts = counts::to_json(counted(arms[i].levels));
      store_->record_counts(r);
    }
    return id;
  }

  screen_arms arms() {
    return [this](const search::levels& l) { return arm(l); };
  }
  arm_counter counter() {
    return [this](const std::vector<arm_plan>& a, const std::string& role) { return count(a, role); };
  }

  manifest m_;
  screen_request q_;
  std::string broken_;
  std::vector<std::string> roles_;
};

TEST_F(counts_screen_test, a_toggle_that_moves_no_count_is_screened_out_and_the_rest_stay_timed) {
  std::vector<std::string> exclude, notes;
  const counts_screen s = screen_counts(*store_, q_, arms(), counter(), exclude, notes);
  EXPECT_EQ(roles_, (std::vector<std::string>{"counts-screen"}));
  EXPECT_FALSE(s.experiment.empty());
  // B1 and B2 move nothing from `from`, but do at `to` (without the other one's partner): timed.
  EXPECT_EQ(s.not_timed, (std::vector<std::string>{"A2"}));
  EXPECT_EQ(exclude, (std::vector<std::string>{"A2"}));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "counts screen (" + s.experiment + "): no count moved with A2 at either end — not timed");
  // One block per toggle, `from` with it vs `from`: A1=4's moved Ir by 30%.
  std::vector<std::string> terms;
  for (const auto& [term, block] : s.blocks) terms.push_back(term);
  ASSERT_EQ(terms, (std::vector<std::string>{"A1=4", "A2", "B1", "B2"}));
  const counts::mechanism& a1 = s.blocks.at("A1=4");
  EXPECT_EQ(a1.base_label, "base");
  EXPECT_EQ(a1.candidate_label, "A1=4");
  ASSERT_EQ(a1.moved.size(), 1u);
  EXPECT_EQ(a1.moved[0].name, "Ir");
  EXPECT_TRUE(s.blocks.at("A2").moved.empty());
  EXPECT_EQ(s.factors.at("B2").toggle, "B2");
  // Each variant counted once: from, to, and per toggle `from` + it and `to` − it.
  EXPECT_EQ(store_->list_counts(s.experiment).size(), 10u);
}

TEST_F(counts_screen_test, a_toggle_that_does_not_build_is_left_timed) {
  broken_ = "A2";
  std::vector<std::string> exclude, notes;
  const counts_screen s = screen_counts(*store_, q_, arms(), counter(), exclude, notes);
  EXPECT_TRUE(s.not_timed.empty());
  EXPECT_TRUE(exclude.empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "counts screen (" + s.experiment + "): every toggle moved a count — all timed");
}

TEST_F(counts_screen_test, toggles_already_left_out_are_not_counted_and_nothing_left_counts_nothing) {
  std::vector<std::string> exclude{"A1", "A2", "B1", "B2"}, notes;
  const counts_screen s = screen_counts(*store_, q_, arms(), counter(), exclude, notes);
  EXPECT_TRUE(s.experiment.empty());
  EXPECT_TRUE(roles_.empty());
  EXPECT_TRUE(notes.empty());
}

TEST_F(counts_screen_test, a_culprit_pair_is_counted_afterwards_for_its_block) {
  std::vector<std::string> exclude, notes;
  counts_screen s = screen_counts(*store_, q_, arms(), counter(), exclude, notes);
  search::attribution split;
  split.culprits.push_back(search::culprit{{"B1", "B2"}, 0.05, 0.04, 0.06, std::nullopt, {}});
  split.offsets.push_back(search::culprit{{"A1=4"}, -0.1, -0.11, -0.09, std::nullopt, {}});  // has its block
  count_interactions(*store_, q_, arms(), counter(), split, s);
  EXPECT_EQ(roles_, (std::vector<std::string>{"counts-screen", "counts-term"}));
  ASSERT_EQ(term_blocks(split.culprits[0], s).size(), 1u);
  EXPECT_EQ(term_blocks(split.culprits[0], s)[0]->candidate_label, "B1+B2");
  ASSERT_EQ(term_blocks(split.offsets[0], s).size(), 1u);
  EXPECT_EQ(term_blocks(split.offsets[0], s)[0]->candidate_label, "A1=4");
  EXPECT_TRUE(term_blocks(search::culprit{{"A2", "B1"}, 0, 0, 0, std::nullopt, {}}, s).empty()) << "never counted";
}

}  // namespace
}  // namespace abtest
