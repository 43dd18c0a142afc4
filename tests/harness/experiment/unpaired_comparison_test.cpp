// `compare A B` below the CLI: one variant across two experiments measured on the simulated source
// into a real results database — a machine 20% slower is found, the same machine is not, a missing
// arm is a usage error.
#include "harness/experiment/unpaired_comparison.hpp"

#include <gtest/gtest.h>

#include "harness/core/errors.hpp"
#include "tests/harness/experiment/scenario_store.hpp"

namespace abtest {
namespace {

std::string machine(double base) {
  return R"({"toggles": [{"id": "A1", "levels": ["0", "1", "4"], "on": "4"}],
             "metrics": {"proof.total_s": {"base": )" +
         std::to_string(base) + R"(, "noise_cv": 0.01, "effects": {"A1=4": 0.0953}}}, "seed": 2})";
}

class unpaired_comparison_test : public test::scenario_store {
 protected:
  // An experiment of base and A1=4 on a machine whose base takes `base` seconds.
  db::experiment_record on_machine(const std::string& name, double base, std::uint64_t seed) {
    const auto path = write_scenario(name, machine(base));
    const search::scenario s = search::load_scenario(path);
    const manifest m = manifest_from_scenario(s, path);
    run_plan p;
    p.benchmarks = {"proof"};
    p.rounds = 8;
    p.warmups = 1;
    p.seed = seed;
    p.simulate = path.string();
    p.arms = {arm_plan{"base", {}, "baseline", {}, {}, std::nullopt, {}, {}},
              arm_plan{"A1=4", {{"A1", "4"}}, "candidate", {}, {}, std::nullopt, {}, {}}};
    return *store_->find_experiment(measured(s, m, p));
  }

  static const verdict_row* row(const analysis_result& a, const std::string& metric) {
    for (const auto& r : a.rows)
      if (r.metric == metric) return &r;
    return nullptr;
  }
};

TEST_F(unpaired_comparison_test, a_slower_machine_is_found_in_the_variant_compared) {
  const auto before = on_machine("fast", 2.0, 1), after = on_machine("slow", 2.4, 2);
  const unpaired_comparison c = compare_unpaired(*store_, before, after, "A1=4", std::nullopt);
  EXPECT_EQ(c.variant, "A1=4");
  const verdict_row* total = row(c.analysis, "proof.total_s");
  ASSERT_NE(total, nullptr);
  EXPECT_EQ(total->verdict, stats::verdict::slower);
  EXPECT_NEAR(total->primary.ratio(), 1.2, 0.03);
  EXPECT_EQ(total->n, 16) << "8 measured samples a side, warm-ups left out";
  EXPECT_NEAR(total->baseline_median, 2.0 * 1.1, 0.1);
  EXPECT_NEAR(total->candidate_median, 2.4 * 1.1, 0.1);
}

TEST_F(unpaired_comparison_test, the_same_machine_is_not_slower_and_the_default_variant_is_the_first_arm) {
  const auto before = on_machine("one", 2.0, 1), after = on_machine("two", 2.0, 2);
  const unpaired_comparison c = compare_unpaired(*store_, before, after, "", 0.05);
  EXPECT_EQ(c.variant, "base");
  const verdict_row* total = row(c.analysis, "proof.total_s");
  ASSERT_NE(total, nullptr);
  EXPECT_NE(total->verdict, stats::verdict::slower);
  EXPECT_NE(total->verdict, stats::verdict::faster);
  EXPECT_NEAR(total->primary.ratio(), 1.0, 0.03);
}

TEST_F(unpaired_comparison_test, an_experiment_without_the_arm_is_a_usage_error_naming_it) {
  const auto before = on_machine("one", 2.0, 1), after = on_machine("two", 2.0, 2);
  try {
    compare_unpaired(*store_, before, after, "A1=1", std::nullopt);
    ADD_FAILURE() << "no error";
  } catch (const user_error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    EXPECT_EQ(std::string(e.what()), "experiment " + before.id + " has no arm A1=1 — pick one with --variant");
  }
}

}  // namespace
}  // namespace abtest
