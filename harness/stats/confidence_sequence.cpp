// Always-valid confidence sequence (mixture SPRT) and the adaptive-sampling monitor.
#include "harness/stats/confidence_sequence.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "harness/stats/descriptive.hpp"

namespace abtest::stats {

namespace {

// ln Λ_n of the normal-mixture SPRT against mean 0 (Johari et al. 2017):
// Λ_n = √(s²/(s² + nτ²)) · exp( n²τ² x̄² / (2 s²(s² + nτ²)) ).
double log_mixture_lr(int n, double mean, double variance, double tau) {
  const double nt2 = n * tau * tau;
  return 0.5 * std::log(variance / (variance + nt2)) +
         n * nt2 * mean * mean / (2.0 * variance * (variance + nt2));
}

// The interval at n from the sample's own (plug-in) variance, or from the larger of it and a variance
// known beforehand (NaN: none). `spread` stays the sample's, which a search pools across comparisons.
log_estimate interval(int n, double m, double plug_in, double known, double tau, double alpha) {
  log_estimate out;
  out.n = n;
  out.estimate = m;
  if (n < 2) return out;
  const double variance = std::isfinite(known) ? std::max(plug_in, known) : plug_in;
  out.spread = std::sqrt(plug_in);
  const double h = msprt_half_width(n, variance, tau, alpha);
  out.ci_low = m - h;
  out.ci_high = m + h;
  out.has_ci = true;
  if (variance == 0.0) {
    out.p_value = m != 0.0 ? 0.0 : 1.0;
  } else {
    out.statistic = log_mixture_lr(n, m, variance, tau);
    out.p_value = std::min(1.0, std::exp(-out.statistic));
  }
  return out;
}

}  // namespace

double msprt_half_width(int n, double variance, double tau, double alpha) {
  if (n < 1 || !(tau > 0.0) || !(alpha > 0.0 && alpha < 1.0)) {
    throw std::invalid_argument("error: confidence sequence needs n ≥ 1, τ > 0 and 0 < α < 1 — check the options");
  }
  if (variance <= 0.0) return 0.0;
  const double nt2 = n * tau * tau;
  const double scale = 2.0 * variance * (variance + nt2) / (n * nt2);  // n²τ² = n · nτ²
  const double bracket = std::log(1.0 / alpha) + 0.5 * std::log1p(nt2 / variance);
  return std::sqrt(scale * bracket);
}

log_estimate msprt_interval(std::span<const double> d, double tau, double alpha, double known_variance) {
  const int n = static_cast<int>(d.size());
  if (n == 0) return log_estimate{};
  const double s = n >= 2 ? sd(d) : 0.0;
  return interval(n, mean(d), s * s, known_variance, tau, alpha);
}

adaptive_monitor::adaptive_monitor(sequential_options options) : options_(options) {
  if (options_.min_rounds < 2 || options_.max_rounds < options_.min_rounds) {
    throw std::invalid_argument(
        "error: adaptive sampling needs 2 ≤ min_rounds ≤ max_rounds — raise --max-rounds");
  }
}

void adaptive_monitor::add(double d) {
  ++n_;
  const double delta = d - mean_;
  mean_ += delta / n_;
  m2_ += delta * (d - mean_);
  if (n_ >= options_.min_rounds) min_p_ = std::min(min_p_, raw().p_value);
}

log_estimate adaptive_monitor::raw() const {
  const double variance = n_ >= 2 ? m2_ / (n_ - 1) : 0.0;
  return interval(n_, mean_, variance, options_.known_variance, options_.tau, options_.alpha);
}

log_estimate adaptive_monitor::current() const {
  if (n_ < options_.min_rounds) {
    log_estimate out;
    out.n = n_;
    out.estimate = mean_;
    return out;
  }
  log_estimate out = raw();
  out.p_value = min_p_;
  return out;
}

verdict_result adaptive_monitor::current_verdict() const { return decide(current(), options_.margin); }

bool adaptive_monitor::decisive() const {
  const verdict v = current_verdict().value;
  return v == verdict::slower || v == verdict::faster || v == verdict::same;
}

bool adaptive_monitor::should_stop() const { return decisive() || n_ >= options_.max_rounds; }

}  // namespace abtest::stats
