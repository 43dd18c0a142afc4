// Calibration of the verdict procedures by simulation: false positives under A/A, power under a real effect.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "harness/stats/confidence_sequence.hpp"
#include "harness/stats/paired_t.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::stats {
namespace {

// Per-sample noise of a benchmark with coefficient of variation 2%: ln value ~ N(ln base, ln(1.02)²)
// (the scenario model of design §12). One round yields d = ln V − ln B.
struct arms {
  std::mt19937_64 rng;
  std::normal_distribution<double> noise{0.0, std::log1p(0.02)};
  double effect = 0.0;  // true ln(V/B)
  double next_d() { return effect + noise(rng) - noise(rng); }
};

bool is_positive(verdict v) { return v == verdict::slower || v == verdict::faster; }

// Three binomial standard errors above the nominal rate: a test at level α has an expected false
// positive rate of exactly α, so an honest bound on a simulated rate must allow for sampling error.
double upper_bound(double alpha, int trials) { return alpha + 3.0 * std::sqrt(alpha * (1.0 - alpha) / trials); }

TEST(calibration, fixed_n_aa_false_positives_stay_at_alpha) {
  const std::uint64_t seed = 101;
  arms a{std::mt19937_64(seed)};
  const int trials = 20000;
  int positives = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> d(20);
    for (double& v : d) v = a.next_d();
    positives += is_positive(decide(one_sample_t(d)).value);
  }
  const double rate = static_cast<double>(positives) / trials;
  RecordProperty("aa_fixed_n20_rate", std::to_string(rate));
  EXPECT_LE(rate, upper_bound(0.05, trials)) << "seed " << seed << " rate " << rate;
  EXPECT_GE(rate, 0.03) << "seed " << seed << " rate " << rate << " (an over-wide CI would also be a bug)";
}

TEST(calibration, adaptive_aa_false_positives_below_alpha_up_to_50_rounds) {
  const std::uint64_t seed = 202;
  arms a{std::mt19937_64(seed)};
  // The true rate is ≈ 4.4% (200 000 replicates): the plug-in variance at the first look (n = 10) costs
  // most of the margin to 5%, so the replicate count keeps the simulation error (SE ≈ 0.15%) well below that margin.
  const int trials = 20000;
  int positives = 0;
  for (int t = 0; t < trials; ++t) {
    adaptive_monitor m;  // rounds 10..50
    while (!m.should_stop()) m.add(a.next_d());
    positives += is_positive(m.current_verdict().value);
  }
  const double rate = static_cast<double>(positives) / trials;
  RecordProperty("aa_adaptive_rate", std::to_string(rate));
  EXPECT_LE(rate, 0.05) << "seed " << seed << " rate " << rate;
}

TEST(calibration, naive_retesting_after_every_round_inflates_false_positives) {
  const std::uint64_t seed = 303;
  arms a{std::mt19937_64(seed)};
  const int trials = 2000;
  int positives = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> d;
    bool stopped = false;
    while (!stopped && d.size() < 50) {
      d.push_back(a.next_d());
      stopped = d.size() >= 3 && is_positive(decide(one_sample_t(d)).value);
    }
    positives += stopped;
  }
  const double rate = static_cast<double>(positives) / trials;
  RecordProperty("naive_retest_rate", std::to_string(rate));
  EXPECT_GT(rate, 0.10) << "seed " << seed << " rate " << rate;
}

TEST(calibration, adaptive_detects_three_percent_within_30_rounds) {
  const std::uint64_t seed = 404;
  arms a{std::mt19937_64(seed)};
  a.effect = std::log1p(0.03);
  const int trials = 1000;
  int detected = 0;
  sequential_options o;
  o.max_rounds = 30;
  for (int t = 0; t < trials; ++t) {
    adaptive_monitor m(o);
    while (!m.should_stop()) m.add(a.next_d());
    detected += m.current_verdict().value == verdict::slower;
  }
  const double rate = static_cast<double>(detected) / trials;
  RecordProperty("detect_3pct_rate", std::to_string(rate));
  EXPECT_GE(rate, 0.80) << "seed " << seed << " rate " << rate;
}

}  // namespace
}  // namespace abtest::stats
