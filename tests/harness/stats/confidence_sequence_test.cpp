// Tests of the mixture-SPRT confidence sequence and the adaptive monitor.
#include "harness/stats/confidence_sequence.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
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

// A variance known beforehand (a factorial matrix's residual): the interval takes the larger of it and
// the plug-in, so a known variance can widen an interval but never narrow it below the sample's own.
TEST(confidence_sequence, a_known_variance_widens_never_narrows) {
  const log_estimate plug_in = msprt_interval(d);
  const double v = plug_in.spread * plug_in.spread;
  const log_estimate wider = msprt_interval(d, 0.02, 0.05, 4.0 * v);
  const log_estimate same = msprt_interval(d, 0.02, 0.05, v / 4.0);
  EXPECT_NEAR(wider.ci_high - wider.ci_low, 2.0 * msprt_half_width(10, 4.0 * v, 0.02, 0.05), 1e-15);
  EXPECT_NEAR(same.ci_low, plug_in.ci_low, 1e-15);
  EXPECT_NEAR(same.ci_high, plug_in.ci_high, 1e-15);
  EXPECT_NEAR(wider.spread, plug_in.spread, 1e-15) << "the spread stays the sample's: the search pools it";
  EXPECT_NEAR(msprt_interval(d, 0.02, 0.05, std::nan("")).ci_low, plug_in.ci_low, 1e-15);
}

// With the variance known the sequence may start at two rounds: a seeded A/A of 4000 monitors that
// stop at the first decisive verdict (min 2, max 50 rounds) declares SLOWER or FASTER at most α of
// the time. (The plug-in alone at two rounds would not hold: its variance is one squared difference;
// the same simulation in Python declares 28% of the A/As decisive, 1.6% with the variance known.)
TEST(adaptive_monitor, known_variance_keeps_the_error_level_from_two_rounds) {
  std::mt19937_64 rng(2718);
  const double sigma = 0.02;
  std::normal_distribution<double> noise(0.0, sigma);
  int false_decisive = 0;
  const int replicates = 4000;
  for (int i = 0; i < replicates; ++i) {
    adaptive_monitor m(sequential_options{.alpha = 0.05, .tau = 0.02, .margin = 0.01, .min_rounds = 2, .max_rounds = 50,
                                          .known_variance = sigma * sigma});
    while (!m.should_stop()) m.add(noise(rng));
    const verdict v = m.current_verdict().value;
    false_decisive += v == verdict::slower || v == verdict::faster;
  }
  EXPECT_LE(false_decisive, static_cast<int>(0.05 * replicates)) << false_decisive << " of " << replicates;
  EXPECT_GT(false_decisive, 0) << "the check can fail: some replicate does cross";
}

// A planted effect is found in a few rounds with the variance known, where the plug-in waits for ten.
TEST(adaptive_monitor, known_variance_decides_a_large_effect_early) {
  adaptive_monitor m(sequential_options{.alpha = 0.05, .tau = 0.1, .margin = 0.01, .min_rounds = 3, .max_rounds = 50,
                                        .known_variance = 2.0 * 0.02 * 0.02});
  for (double x : {0.11, 0.09, 0.10}) m.add(x);
  EXPECT_TRUE(m.decisive());
  EXPECT_EQ(m.current_verdict().value, verdict::slower);
}

}  // namespace
}  // namespace abtest::stats
