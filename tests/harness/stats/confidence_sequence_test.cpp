// Tests of the mixture-SPRT confidence sequence and the adaptive monitor.
#include "harness/stats/confidence_sequence.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "harness/stats/paired_t.hpp"

namespace abtest::stats {
namespace {

const std::vector<double> d{0.012, -0.004, 0.031, 0.008, 0.019, -0.011, 0.025, 0.003, 0.016, 0.027};

TEST(confidence_sequence, half_width_by_the_formula) {
  // python3 -c "import math; n,v,t,a=20,0.000784,0.02,0.05;
  //   print(math.sqrt(2*v*(v+n*t*t)/(n*n*t*t)*(math.log(1/a)+0.5*math.log(1+n*t*t/v))))" → 0.019023214706976346
  EXPECT_NEAR(msprt_half_width(20, 0.000784, 0.02, 0.05), 0.019023214706976346, 1e-15);
  EXPECT_EQ(msprt_half_width(20, 0.0, 0.02, 0.05), 0.0);
  EXPECT_THROW(msprt_half_width(0, 0.1, 0.02, 0.05), std::invalid_argument);
}

TEST(confidence_sequence, interval_and_always_valid_p) {
  const log_estimate e = msprt_interval(d);
  // python3 -c "import math,statistics as st; t,a=0.02,0.05; d=[0.012,-0.004,0.031,0.008,0.019,-0.011,0.025,
  //   0.003,0.016,0.027]; n=len(d); v=st.variance(d); m=st.mean(d);
  //   h=math.sqrt(2*v*(v+n*t*t)/(n*n*t*t)*(math.log(1/a)+0.5*math.log(1+n*t*t/v)));
  //   L=0.5*math.log(v/(v+n*t*t))+n*n*t*t*m*m/(2*v*(v+n*t*t)); print(m-h,m+h,min(1,math.exp(-L)))"
  // → -0.0008036852739449988 0.026003685273944997 0.08484283781953253
  EXPECT_NEAR(e.ci_low, -0.0008036852739449988, 1e-14);
  EXPECT_NEAR(e.ci_high, 0.026003685273944997, 1e-14);
  EXPECT_NEAR(e.p_value, 0.08484283781953253, 1e-12);
  // Always-valid costs width: the fixed-n t CI at the same n is narrower and excludes 0 here.
  const log_estimate t = one_sample_t(d);
  EXPECT_GT(t.ci_low, 0.0);
  EXPECT_GT(e.ci_high - e.ci_low, t.ci_high - t.ci_low);
}

TEST(adaptive_monitor, no_ci_before_min_rounds) {
  adaptive_monitor m;
  for (int i = 0; i < 9; ++i) m.add(0.2);
  EXPECT_FALSE(m.current().has_ci);
  EXPECT_FALSE(m.decisive());
  EXPECT_FALSE(m.should_stop());
  m.add(0.2);
  EXPECT_TRUE(m.decisive());  // ten identical differences: zero variance collapses the interval
  EXPECT_EQ(m.current_verdict().value, verdict::slower);
}

TEST(adaptive_monitor, matches_the_batch_interval_and_stops_at_max_rounds) {
  sequential_options o;
  o.min_rounds = 5;
  o.max_rounds = 10;
  adaptive_monitor m(o);
  for (double v : d) m.add(v);
  const log_estimate batch = msprt_interval(d);
  EXPECT_EQ(m.rounds(), 10);
  EXPECT_NEAR(m.current().ci_low, batch.ci_low, 1e-12);
  EXPECT_NEAR(m.current().ci_high, batch.ci_high, 1e-12);
  EXPECT_LE(m.current().p_value, batch.p_value + 1e-15);  // running minimum
  EXPECT_EQ(m.current_verdict().value, verdict::inconclusive);
  EXPECT_TRUE(m.should_stop());
  EXPECT_THROW(adaptive_monitor(sequential_options{.min_rounds = 10, .max_rounds = 5}), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::stats
