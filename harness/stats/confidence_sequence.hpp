// Always-valid confidence sequence (mixture SPRT) and the adaptive-sampling monitor built on it.
#pragma once

#include <limits>
#include <span>

#include "harness/stats/estimate.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::stats {

struct sequential_options {
  double alpha = 0.05;   // error level of the whole sequence, whenever it is stopped
  double tau = 0.02;     // mixing sd ≈ the smallest log effect of interest
  double margin = default_margin;
  int min_rounds = 10;   // the plug-in variance is too rough before this (design §7)
  int max_rounds = 50;
  // The variance of one difference d as a larger, independent sample measured it (a factorial
  // matrix's residual, taken at an upper confidence bound): the sequence then uses the larger of it
  // and the plug-in, so it is sound from the first rounds and min_rounds may be as low as 2.
  // NaN: the plug-in alone.
  double known_variance = std::numeric_limits<double>::quiet_NaN();
};

// Half-width of the mixture-SPRT confidence sequence for the mean of Gaussian observations with
// variance s² after n of them, normal mixing distribution N(0, τ²) (Johari, Pekelis & Walsh 2017,
// "Always valid inference", eq. for the mSPRT with normal mixture; Johari et al. 2022, Oper. Res.):
//   √( 2 s²(s² + nτ²)/(n²τ²) · [ln(1/α) + ½ ln(1 + nτ²/s²)] ).
// s² = 0 gives 0 (the limit: every observation equal).
double msprt_half_width(int n, double variance, double tau, double alpha);

// The confidence sequence at the current n over the differences d, with the plug-in sample
// variance: estimate = mean d, CI = mean ± msprt_half_width, p_value = min(1, 1/Λ_n) with Λ_n the
// mixture likelihood ratio against mean 0. n < 2 → no CI. With a variance known beforehand
// (sequential_options::known_variance) the CI uses the larger of it and the plug-in; NaN = the
// plug-in alone.
log_estimate msprt_interval(std::span<const double> d, double tau = 0.02, double alpha = 0.05,
                            double known_variance = std::numeric_limits<double>::quiet_NaN());

// Feed one round's d = ln V − ln B at a time and ask whether to stop. Uses the always-valid interval
// from min_rounds on (no CI before), so stopping at the first decisive verdict keeps the error level α
// — unlike re-testing a fixed-n t CI after every round. Example:
//   adaptive_monitor m;                      // α 0.05, τ 0.02, δ 1%, rounds 10..50
//   while (!m.should_stop()) m.add(std::log(run_candidate()) - std::log(run_baseline()));
//   report(m.current(), m.current_verdict());
class adaptive_monitor {
 public:
  explicit adaptive_monitor(sequential_options options = {});

  void add(double d);
  int rounds() const { return n_; }
  const sequential_options& options() const { return options_; }

  // The always-valid estimate; p_value is the running minimum of 1/Λ (an always-valid p-value).
  log_estimate current() const;
  verdict_result current_verdict() const;
  bool decisive() const;     // min_rounds reached and the verdict is slower, faster or same
  bool should_stop() const;  // decisive, or max_rounds reached

 private:
  log_estimate raw() const;  // the interval at the current n, ignoring min_rounds

  sequential_options options_;
  int n_ = 0;
  double mean_ = 0.0;
  double m2_ = 0.0;  // Welford's running sum of squared deviations (Welford 1962)
  double min_p_ = 1.0;
};

}  // namespace abtest::stats
