// Tests of the search's pricing: the design chosen by expected cost, and the full factorial at equal precision.
#include "harness/search/price.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <stdexcept>

namespace abtest::search {
namespace {

const priced_design& alternative(const search_plan& p, design_choice d) {
  for (const priced_design& a : p.alternatives)
    if (a.design == d) return a;
  throw std::logic_error("no such alternative");
}

TEST(price, five_toggles_take_the_half_fraction_for_the_same_runs_and_half_the_builds) {
  const search_plan p = plan_search(5, unit_costs{}, plan_options{});
  EXPECT_EQ(p.chosen.design, design_choice::half);
  EXPECT_EQ(p.chosen.label, "half 2^(5-1) E=ABCD");
  EXPECT_EQ(p.chosen.configs, 16);
  const priced_design& full = alternative(p, design_choice::full);
  EXPECT_EQ(full.configs, 32);
  EXPECT_LE(p.chosen.expected.runs, full.expected.runs);
  EXPECT_LT(p.chosen.expected.builds, full.expected.builds);
  EXPECT_GE(p.chosen.rounds, 2);
  EXPECT_EQ(p.alternatives.size(), 3u);
}

TEST(price, more_noise_means_more_matrix_rounds) {
  unit_costs quiet, loud;
  quiet.sigma = 0.01;
  loud.sigma = 0.04;
  plan_options o;
  o.design = design_choice::full;
  EXPECT_LT(plan_search(4, quiet, o).chosen.rounds, plan_search(4, loud, o).chosen.rounds);
  o.matrix_rounds = 3;  // --rounds: not planned
  EXPECT_EQ(plan_search(4, loud, o).chosen.rounds, 3);
}

TEST(price, the_cheapest_wall_decides_so_dear_builds_favour_group_testing) {
  unit_costs u;
  u.run_s = 90.0;
  u.build_s = 60.0;
  EXPECT_EQ(plan_search(8, u, plan_options{}).chosen.design, design_choice::half);
  u.build_s = 3600.0;  // an hour a build: few configurations win
  const search_plan p = plan_search(8, u, plan_options{});
  EXPECT_EQ(p.chosen.design, design_choice::group);
  EXPECT_EQ(p.reason, "cheapest in wall time");
  EXPECT_DOUBLE_EQ(p.chosen.expected.wall_s, p.chosen.expected.builds * 3600.0 + p.chosen.expected.runs * 90.0);
  // Beyond 16 toggles only group testing applies.
  EXPECT_EQ(plan_search(24, u, plan_options{}).alternatives.size(), 1u);
}

// Below group_testing_from toggles auto keeps to a factorial even when group testing is priced lower:
// the planted fixture's SLOW beside PAIR1*PAIR2 (k = 3) lost the pair to it.
TEST(price, few_toggles_keep_to_a_factorial_that_sees_every_pair) {
  unit_costs u;
  u.run_s = 1.0;
  u.build_s = 3600.0;
  for (int k = 2; k < group_testing_from; ++k) {
    const search_plan p = plan_search(k, u, plan_options{});
    EXPECT_NE(p.chosen.design, design_choice::group) << k;
    EXPECT_NE(p.reason.find("group testing only from"), std::string::npos) << p.reason;
    EXPECT_TRUE(std::any_of(p.alternatives.begin(), p.alternatives.end(),
                            [](const priced_design& d) { return d.design == design_choice::group; }))
        << "still priced, for the record";
  }
  EXPECT_EQ(plan_search(group_testing_from + 1, u, plan_options{}).chosen.design, design_choice::group);
}

TEST(price, a_forced_design_is_run_or_refused) {
  plan_options o;
  o.design = design_choice::half;
  EXPECT_EQ(plan_search(3, unit_costs{}, o).chosen.design, design_choice::full) << "a half of 3 factors is the full one";
  EXPECT_THROW(plan_search(10, unit_costs{}, o), std::invalid_argument);
  o.design = design_choice::group;
  EXPECT_EQ(plan_search(5, unit_costs{}, o).chosen.design, design_choice::group);
  EXPECT_EQ(plan_search(5, unit_costs{}, o).reason, "--design group");
  EXPECT_THROW(plan_search(1, unit_costs{}, o), std::invalid_argument);
  EXPECT_THROW(plan_search(0, unit_costs{}, plan_options{}), std::invalid_argument);
  EXPECT_EQ(parse_design_choice("auto"), design_choice::automatic);
  EXPECT_EQ(to_string(parse_design_choice("half")), "half");
  EXPECT_THROW(parse_design_choice("fractional"), std::invalid_argument);
}

TEST(price, the_full_factorial_at_equal_precision_solves_se_for_n) {
  unit_costs u;
  u.sigma = 0.02;
  u.build_s = 10.0;
  u.run_s = 1.0;
  // N = ⌈(1.96 · 2 · 0.02 / 0.01)²⌉ = 62 runs → 8 rounds of 2^3 configurations.
  const price p = full_factorial_at(3, 0.01, u);
  EXPECT_EQ(p.builds, 8);
  EXPECT_EQ(p.runs, 64);
  EXPECT_DOUBLE_EQ(p.wall_s, 8 * 10.0 + 64 * 1.0);
  // A wide half-width needs no more than the fewest rounds the matrix can estimate its error with.
  EXPECT_EQ(full_factorial_at(3, 1.0, u).runs, 16);
  EXPECT_EQ(full_factorial_at(3, 1.0, u, 1).runs, 8);
  // Half the width, four times the runs.
  EXPECT_EQ(full_factorial_at(1, 0.005, u).runs, 246);
  EXPECT_GT(full_factorial_at(60, 0.01, u).runs, 1000000000000LL) << "saturates, does not overflow";
  // A term whose SE is 2√2·σ/√N (a main effect re-fitted beside its pair) needs twice the runs for
  // the same width: N = ⌈(1.96 · 2√2 · 0.02 / 0.01)²⌉ = 123 → 16 rounds of 8.
  EXPECT_EQ(full_factorial_at(3, 0.01, u, 2, 2.0 * std::sqrt(2.0)).runs, 128);
}

}  // namespace
}  // namespace abtest::search
