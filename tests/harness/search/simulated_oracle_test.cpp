// Tests of the simulated oracle: paired rounds cancel drift, retries spend more rounds, matrices have their shape.
#include "harness/search/simulated_oracle.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace abtest::search {
namespace {

const scenario drifting = parse_scenario(nlohmann::json::parse(R"({
  "toggles": [{"id": "A2"}, {"id": "B1"}],
  "metrics": {"proof.total_s": {"base": 10.0, "noise_cv": 0.02, "effects": {"B1": 0.05},
                                "drift_per_round": 0.01}}
})"));

TEST(simulated_oracle, paired_rounds_cancel_drift) {
  const std::uint64_t seed = 5;
  simulated_oracle o(drifting, "proof.total_s", seed);
  // 1% drift per round would fake a large effect between unpaired arms; paired, it cancels.
  const comparison same = o.compare({}, {{"A2", "ON"}}, {.margin = 0.02, .alpha = 0.05, .attempt = 0});
  EXPECT_NE(same.verdict, stats::verdict::slower) << "seed " << seed;
  EXPECT_NE(same.verdict, stats::verdict::faster) << "seed " << seed;
  EXPECT_NEAR(same.estimate.estimate, 0.0, 0.015) << "seed " << seed;
  EXPECT_EQ(same.runs, 2 * same.rounds);
  const comparison slow = o.compare({}, {{"B1", "ON"}}, {.margin = 0.01, .alpha = 0.05, .attempt = 0});
  EXPECT_EQ(slow.verdict, stats::verdict::slower) << "seed " << seed;
  EXPECT_LT(slow.estimate.ci_low, 0.05);
  EXPECT_GT(slow.estimate.ci_high, 0.05);
}

TEST(simulated_oracle, a_retry_may_run_up_to_the_larger_cap) {
  // At a 0.1% margin an A/A never becomes SAME: the comparison runs to its cap.
  simulated_oracle o(drifting, "proof.total_s", 6);
  const comparison first = o.compare({}, {}, {.margin = 0.001, .alpha = 0.05, .attempt = 0});
  const comparison retry = o.compare({}, {}, {.margin = 0.001, .alpha = 0.05, .attempt = 1});
  EXPECT_EQ(first.rounds, 50);
  EXPECT_EQ(retry.rounds, 100);
  EXPECT_EQ(retry.verdict, stats::verdict::inconclusive);
}

TEST(simulated_oracle, matrix_shape_and_cost) {
  simulated_oracle o(drifting, "proof.total_s", 7);
  const matrix_result m = o.run_matrix({{}, {{"B1", "ON"}}, {{"A2", "ON"}}}, 4);
  ASSERT_EQ(m.log_values.size(), 3u);
  EXPECT_EQ(m.log_values[0].size(), 4u);
  EXPECT_EQ(m.runs, 12);
  // Values are logs of seconds around ln 10 (plus up to 4% drift and noise).
  EXPECT_NEAR(m.log_values[0][0], std::log(10.0), 0.1);
  EXPECT_THROW(simulated_oracle(drifting, "proof.gpu_s", 1).run_matrix({{}}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::search
