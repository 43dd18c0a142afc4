// RMIT round order: every (arm, benchmark) once per round, seeded, reproducible, and varied.
#include "harness/core/plan.hpp"

#include <gtest/gtest.h>

#include <set>

namespace abtest {
namespace {

run_plan three_arms(uint64_t seed) {
  run_plan p;
  p.arms = {{"base", {}, "baseline", "/b/base", "d0", 1, {}, {}},
            {"A1=4", {{"A1", "4"}}, "candidate", "/b/A1", "d1", 2, {{"synth-bench", "/b/A1/bench/synth-bench"}}, {}},
            {"B1", {{"B1", "ON"}}, "candidate", "/b/B1", "d2", std::nullopt, {}, {{"ZK_WINDOW", "16"}, {"ZK_TRACE", std::nullopt}}}};
  p.benchmarks = {"synth", "proof"};
  p.seed = seed;
  return p;
}

TEST(plan, each_round_holds_every_slot_once) {
  const auto p = three_arms(42);
  for (int r = 1; r <= 5; ++r) {
    const auto slots = round_slots(p, r, false);
    ASSERT_EQ(slots.size(), 6u);
    std::set<std::pair<int, std::string>> seen;
    for (size_t i = 0; i < slots.size(); ++i) {
      EXPECT_EQ(slots[i].position, static_cast<int>(i));
      EXPECT_EQ(slots[i].round, r);
      seen.insert({slots[i].arm, slots[i].benchmark});
    }
    EXPECT_EQ(seen.size(), 6u);
  }
}

TEST(plan, order_is_reproducible_from_the_seed_and_differs_between_rounds) {
  const auto p = three_arms(42);
  auto order = [&](int r, bool w) {
    std::vector<std::pair<int, std::string>> o;
    for (const auto& s : round_slots(p, r, w)) o.push_back({s.arm, s.benchmark});
    return o;
  };
  EXPECT_EQ(order(3, false), order(3, false));
  std::set<std::vector<std::pair<int, std::string>>> distinct;
  for (int r = 1; r <= 20; ++r) distinct.insert(order(r, false));
  EXPECT_GT(distinct.size(), 10u);  // 6! = 720 orders; 20 rounds repeating ≤ 10 would be a broken shuffle
  // Position of the baseline is not fixed: it leads some rounds and not others.
  int baseline_first = 0;
  for (int r = 1; r <= 60; ++r) baseline_first += round_slots(p, r, false).front().arm == 0;
  EXPECT_GT(baseline_first, 5);
  EXPECT_LT(baseline_first, 40);
}

TEST(plan, json_round_trip_keeps_everything_resume_needs) {
  auto p = three_arms(7);
  p.adaptive = true;
  p.rounds = 40;
  p.margin = 0.02;
  p.pin = "1";
  p.simulate = "/s.json";
  p.monitor_metrics = {"proof.total_s"};
  const auto q = run_plan::from_json(p.to_json());
  EXPECT_EQ(q.to_json(), p.to_json());
  EXPECT_EQ(q.arms[1].levels.at("A1"), "4");
  EXPECT_EQ(q.arms[1].build_id, 2);
  EXPECT_FALSE(q.arms[2].build_id);
  // Where the build put the programs and the env toggles' environment survive a resume.
  EXPECT_EQ(q.arms[1].programs.at("synth-bench"), "/b/A1/bench/synth-bench");
  EXPECT_EQ(q.arms[2].env.at("ZK_WINDOW"), "16");
  EXPECT_EQ(q.arms[2].env.at("ZK_TRACE"), std::nullopt);  // unset stays unset, not ""
  EXPECT_TRUE(p.to_json()["arms"][2]["env"]["ZK_TRACE"].is_null());
  EXPECT_TRUE(q.arms[0].programs.empty() && q.arms[0].env.empty());
  for (int r = 1; r <= 3; ++r) {
    const auto a = round_slots(p, r, false), b = round_slots(q, r, false);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(std::tie(a[i].arm, a[i].benchmark), std::tie(b[i].arm, b[i].benchmark));
  }
}

}  // namespace
}  // namespace abtest
