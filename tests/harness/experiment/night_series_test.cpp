// The nightly series below `abtest history`, from experiments measured on the simulated source into
// a real results database: one point per night, a group's shards one night, the canary divided out.
#include "harness/experiment/night_series.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/harness/experiment/scenario_store.hpp"

namespace abtest {
namespace {

// A1=4 is 10% slower; the canary (base, frozen) sees only the machine.
constexpr const char* scenario_text = R"({
  "toggles": [{"id": "A1", "levels": ["0", "1", "4"], "on": "4"}],
  "metrics": {"proof.total_s": {"base": 2.0, "noise_cv": 0.01, "effects": {"A1=4": 0.0953}}},
  "seed": 9
})";

class night_series_test : public test::scenario_store {
 protected:
  void SetUp() override {
    scenario_store::SetUp();
    const auto path = write_scenario("nights", scenario_text);
    scenario_ = search::load_scenario(path);
    m_ = manifest_from_scenario(scenario_, path);
    path_ = path.string();
  }

  // One nightly experiment of A1=4 against base (and the canary when asked), in `group` when given.
  std::string night(std::uint64_t seed, const std::string& group = "", bool canary = false) {
    run_plan p;
    p.kind = "nightly";
    p.benchmarks = {"proof"};
    p.rounds = 5;
    p.warmups = 0;
    p.seed = seed;
    p.simulate = path_;
    p.arms = {arm_plan{"base", {}, "baseline", {}, {}, std::nullopt, {}, {}},
              arm_plan{"A1=4", {{"A1", "4"}}, "candidate", {}, {}, std::nullopt, {}, {}}};
    if (canary) p.arms.push_back(arm_plan{"canary", {}, "candidate", {}, {}, std::nullopt, {}, {}});
    return measured(scenario_, m_, p, group.empty() ? nlohmann::json::object() : nlohmann::json{{"group", group}});
  }

  double median_of(const std::string& experiment, const std::string& variant) {
    for (const auto& p : store_->series(variant, "proof.total_s", db::experiment_kind::nightly))
      if (p.experiment_id == experiment) return p.median;
    return NAN;
  }

  search::scenario scenario_;
  manifest m_;
  std::string path_;
};

TEST_F(night_series_test, each_experiment_is_a_night_and_the_shards_of_a_group_are_one) {
  const std::string n1 = night(1), n2 = night(2), s1 = night(3, "g"), s2 = night(4, "g");
  night_index index(*store_);
  const night_series s = nights_of(*store_, index, "A1=4", "proof.total_s", db::experiment_kind::nightly, "canary");
  EXPECT_FALSE(s.normalized) << "no canary measured";
  ASSERT_EQ(s.nights.size(), 3u);
  EXPECT_EQ(s.nights[0].experiments, (std::vector<std::string>{n1}));
  EXPECT_EQ(s.nights[1].experiments, (std::vector<std::string>{n2}));
  EXPECT_EQ(s.nights[2].experiment, s1);
  EXPECT_EQ(s.nights[2].experiments, (std::vector<std::string>{s1, s2}));
  EXPECT_DOUBLE_EQ(s.nights[0].median, median_of(n1, "A1=4"));
  EXPECT_DOUBLE_EQ(s.nights[0].value, std::log(median_of(n1, "A1=4")));
  // A group's night: the geometric mean of its experiments' medians.
  const double a = median_of(s1, "A1=4"), b = median_of(s2, "A1=4");
  EXPECT_NEAR(s.nights[2].median, std::sqrt(a * b), 1e-12);
  EXPECT_NEAR(s.nights[2].value, (std::log(a) + std::log(b)) / 2, 1e-12);
  EXPECT_EQ(index.of(s2), "group g");
}

TEST_F(night_series_test, a_canary_divides_each_experiment_by_its_own_canary) {
  const std::string n1 = night(1, "", true), n2 = night(2, "", true), bare = night(3);
  night_index index(*store_);
  const night_series s = nights_of(*store_, index, "A1=4", "proof.total_s", std::nullopt, "canary");
  EXPECT_TRUE(s.normalized);
  ASSERT_EQ(s.nights.size(), 2u) << "the night without a canary cannot be normalised";
  EXPECT_EQ(s.nights[0].experiment, n1);
  EXPECT_EQ(s.nights[1].experiment, n2);
  EXPECT_NEAR(s.nights[0].value, std::log(median_of(n1, "A1=4") / median_of(n1, "canary")), 1e-12);
  EXPECT_NEAR(s.nights[0].value, 0.0953, 0.03) << "the toggle's effect, the machine's 2 s divided out";
  EXPECT_DOUBLE_EQ(s.nights[0].median, median_of(n1, "A1=4")) << "the median stays raw";
  for (const auto& n : s.nights) EXPECT_EQ(std::count(n.experiments.begin(), n.experiments.end(), bare), 0);
}

}  // namespace
}  // namespace abtest
