// Tests of the gate's exit code by policy: confirmed regressions fail, unconfirmed ones never do,
// and an INVALID head is exit 4 whatever the policy.
#include "harness/gate/policy.hpp"

#include <gtest/gtest.h>

#include "harness/core/errors.hpp"
#include "tests/harness/gate/gate_test_support.hpp"

namespace abtest::gate {
namespace {

using stats::verdict;

gate_result with(verdict v, confirmation state) {
  gate_result r;
  r.benchmarks = {test::timed("b")};
  r.first = test::outcome("e", 1, {test::metric("b.total_s", v, v == verdict::slower ? 2.0 : 0.5)});
  r.changed.push_back({r.first->metrics[0], std::nullopt, state});
  return r;
}

TEST(policy_exit_code, a_confirmed_regression_fails_regression_and_any_but_not_never) {
  const auto r = with(verdict::slower, confirmation::confirmed);
  EXPECT_EQ(policy_exit_code(r, fail_on::regression), 1);
  EXPECT_EQ(policy_exit_code(r, fail_on::any), 1);
  EXPECT_EQ(policy_exit_code(r, fail_on::never), 0);
}

TEST(policy_exit_code, an_improvement_fails_only_any) {
  const auto r = with(verdict::faster, confirmation::confirmed);
  EXPECT_EQ(policy_exit_code(r, fail_on::regression), 0);
  EXPECT_EQ(policy_exit_code(r, fail_on::any), 1);
}

TEST(policy_exit_code, an_unconfirmed_regression_passes) {
  EXPECT_EQ(policy_exit_code(with(verdict::slower, confirmation::unconfirmed), fail_on::any), 0);
}

TEST(policy_exit_code, no_confirm_fails_on_the_first_reading) {
  EXPECT_EQ(policy_exit_code(with(verdict::slower, confirmation::not_checked), fail_on::regression), 1);
}

TEST(policy_exit_code, nothing_timed_passes) {
  gate_result r;
  r.benchmarks = {test::identical("b")};
  EXPECT_EQ(policy_exit_code(r, fail_on::any), 0);
}

TEST(policy_exit_code, an_invalid_head_is_exit_4_even_with_never) {
  gate_result r;
  r.benchmarks = {test::timed("b")};
  r.first = test::outcome("e", 1, {test::metric("b.total_s", verdict::invalid, 1.0)});
  EXPECT_EQ(policy_exit_code(r, fail_on::never), 4);
}

TEST(policy_exit_code, a_failed_benchmark_is_exit_4_even_with_never) {
  auto r = with(verdict::slower, confirmation::confirmed);
  r.first->failed = true;
  EXPECT_EQ(policy_exit_code(r, fail_on::never), 4);
}

TEST(parse_fail_on, knows_the_three_policies_and_refuses_others) {
  EXPECT_EQ(parse_fail_on("regression"), fail_on::regression);
  EXPECT_EQ(parse_fail_on("any"), fail_on::any);
  EXPECT_EQ(parse_fail_on("never"), fail_on::never);
  try {
    parse_fail_on("slower");
    FAIL() << "accepted --fail-on slower";
  } catch (const user_error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    EXPECT_NE(std::string(e.what()).find("regression, any or never"), std::string::npos);
  }
}

}  // namespace
}  // namespace abtest::gate
