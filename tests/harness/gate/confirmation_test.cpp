// Tests of the gate's confirmation: what is timed, what is rerun, and a first experiment that lies —
// by hand, and as a seeded A/A model whose false alerts the rerun must cut.
#include "harness/gate/confirmation.hpp"

#include <gtest/gtest.h>

#include <random>

#include "harness/stats/paired_t.hpp"
#include "tests/harness/gate/gate_test_support.hpp"

namespace abtest::gate {
namespace {

using stats::verdict;
using test::metric;

TEST(run_gate, nothing_timed_runs_no_experiment) {
  int calls = 0;
  const auto r = run_gate({test::identical("a"), test::identical("b")}, {}, [&](const experiment_request&) {
    ++calls;
    return experiment_outcome{};
  });
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(r.first);
  EXPECT_TRUE(r.changed.empty());
}

TEST(run_gate, times_only_the_affected_benchmarks) {
  std::vector<experiment_request> asked;
  run_gate({test::identical("a"), test::timed("b")}, {.seed = 5}, [&](const experiment_request& q) {
    asked.push_back(q);
    return test::outcome("e1", q.seed, {metric("b.total_s", verdict::same, 1.0)});
  });
  ASSERT_EQ(asked.size(), 1u) << "nothing moved: no confirmation";
  EXPECT_EQ(asked[0].benchmarks, std::vector<std::string>{"b"});
  EXPECT_EQ(asked[0].seed, 5u);
}

TEST(run_gate, a_regression_both_experiments_see_is_confirmed_with_a_fresh_seed) {
  std::vector<experiment_request> asked;
  const auto r = run_gate({test::timed("a"), test::timed("b")}, {.seed = 5}, [&](const experiment_request& q) {
    asked.push_back(q);
    return test::outcome("e", q.seed, {metric("a.total_s", verdict::same, 1.0), metric("b.total_s", verdict::slower, 3.0)});
  });
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[1].benchmarks, std::vector<std::string>{"b"}) << "only what moved is rerun";
  EXPECT_NE(asked[1].seed, asked[0].seed);
  EXPECT_EQ(asked[1].attempt, 1);
  ASSERT_EQ(r.changed.size(), 1u);
  EXPECT_EQ(r.changed[0].state, confirmation::confirmed);
  EXPECT_EQ(r.regressions(), 1);
}

TEST(run_gate, a_first_experiment_that_lies_is_unconfirmed_and_not_a_regression) {
  const auto r = run_gate({test::timed("b")}, {.seed = 1}, [](const experiment_request& q) {
    // The first reads a 5% regression that is not there; the independent rerun sees none.
    return test::outcome("e", q.seed, {metric("b.total_s", q.attempt == 0 ? verdict::slower : verdict::same, 1.05)});
  });
  ASSERT_EQ(r.changed.size(), 1u);
  EXPECT_EQ(r.changed[0].state, confirmation::unconfirmed);
  EXPECT_FALSE(reported(r.changed[0]));
  EXPECT_EQ(r.regressions(), 0);
  EXPECT_EQ(r.unconfirmed(), 1);
}

TEST(run_gate, the_opposite_direction_does_not_confirm) {
  const auto r = run_gate({test::timed("b")}, {}, [](const experiment_request& q) {
    return test::outcome("e", q.seed, {metric("b.total_s", q.attempt == 0 ? verdict::slower : verdict::faster, 1.05)});
  });
  EXPECT_EQ(r.changed.at(0).state, confirmation::unconfirmed);
}

TEST(run_gate, no_confirm_reports_the_first_reading_without_a_rerun) {
  int calls = 0;
  const auto r = run_gate({test::timed("b")}, {.confirm = confirm_mode::none}, [&](const experiment_request& q) {
    ++calls;
    return test::outcome("e", q.seed, {metric("b.total_s", verdict::slower, 1.05)});
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(r.changed.at(0).state, confirmation::not_checked);
  EXPECT_EQ(r.regressions(), 1);
}

TEST(run_gate, immaterial_moves_are_not_changes) {
  auto m = metric("b.total_s", verdict::slower, 1.004, 0.001);
  m.immaterial = true;
  const auto r = run_gate({test::timed("b")}, {}, [&](const experiment_request& q) { return test::outcome("e", q.seed, {m}); });
  EXPECT_TRUE(r.changed.empty());
}

// A/A pull requests through a model of the gate's experiment: 12 paired rounds of N(0, 2%) log
// differences, a 95% paired t CI each. Without the rerun about 5% of identical pairs read SLOWER
// or FASTER; the rerun's independent CI must agree, which leaves about 5% × 2.5% of them.
TEST(run_gate, the_rerun_cuts_the_false_alert_rate_of_a_a_pull_requests) {
  auto false_alerts = [](confirm_mode mode) {
    int alerts = 0;
    for (std::uint64_t pr = 0; pr < 2000; ++pr) {
      const auto r = run_gate({test::timed("b")}, {.confirm = mode, .seed = pr}, [](const experiment_request& q) {
        std::mt19937_64 rng(q.seed);
        std::normal_distribution<double> noise(0.0, 0.02);
        std::vector<double> d(12);
        for (auto& x : d) x = noise(rng);
        metric_result m;
        m.metric = "b.total_s";
        m.estimate = stats::one_sample_t(d);
        m.verdict = stats::decide(m.estimate).value;
        m.immaterial = stats::decide(m.estimate).immaterial;
        return test::outcome("", q.seed, {m});
      });
      alerts += r.regressions() + r.improvements() > 0;
    }
    return alerts;
  };
  const int without = false_alerts(confirm_mode::none), with = false_alerts(confirm_mode::rerun);
  EXPECT_GT(without, 40) << "the model's single experiment is a 95% test: ~5% of 2000 minus immaterial ones";
  EXPECT_LT(without, 160);
  EXPECT_LE(with, 8) << "an A/A pull request passes two independent tests in the same direction ~0.1% of the time";
  EXPECT_LT(with * 10, without);
}

}  // namespace
}  // namespace abtest::gate
