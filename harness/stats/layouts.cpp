// Two-level (layouts × rounds) comparison of two arms.
#include "harness/stats/layouts.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "harness/stats/descriptive.hpp"
#include "harness/stats/welch.hpp"

namespace abtest::stats {

namespace {

using log_table = std::vector<std::vector<double>>;

log_table logs_of(const layout_samples& arm, const char* which, std::size_t rounds) {
  if (arm.empty()) throw std::invalid_argument(std::string("error: the ") + which + " arm has no layout — link it at least once");
  log_table out;
  for (const auto& layout : arm) {
    if (layout.size() != rounds) {
      throw std::invalid_argument("error: every layout needs a value in every round (" + std::to_string(layout.size()) +
                                  " vs " + std::to_string(rounds) + ") — drop the rounds with a failed sample");
    }
    std::vector<double> l;
    for (double x : layout) {
      if (!(std::isfinite(x) && x > 0.0)) {
        throw std::invalid_argument("error: layout samples must be finite and positive — exclude failed samples");
      }
      l.push_back(std::log(x));
    }
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<double> means_of(const log_table& t) {
  std::vector<double> out;
  for (const auto& l : t) out.push_back(mean(l));
  return out;
}

}  // namespace

layout_estimate two_level_log_ratio(const layout_samples& candidate, const layout_samples& baseline,
                                    double confidence) {
  if (candidate.empty() || baseline.empty()) logs_of({}, candidate.empty() ? "candidate" : "baseline", 0);
  const std::size_t rounds = candidate.front().size();
  if (rounds == 0) throw std::invalid_argument("error: a layout has no round — run at least one");
  const log_table c = logs_of(candidate, "candidate", rounds);
  const log_table b = logs_of(baseline, "baseline", rounds);

  // Each round's mean over every layout of both arms, removed from the within-layout spread: the
  // drift of the machine is shared by the arms and is not noise of the layout.
  std::vector<double> round_mean(rounds, 0.0);
  for (const log_table* t : {&c, &b})
    for (const auto& l : *t)
      for (std::size_t r = 0; r < rounds; ++r) round_mean[r] += l[r];
  for (double& m : round_mean) m /= static_cast<double>(c.size() + b.size());

  double ss = 0.0, dof = 0.0;  // pooled within-layout sum of squares of the centred logs
  for (const log_table* t : {&c, &b}) {
    for (const auto& l : *t) {
      std::vector<double> centred(rounds);
      for (std::size_t r = 0; r < rounds; ++r) centred[r] = l[r] - round_mean[r];
      const double m = mean(centred);
      for (double v : centred) ss += (v - m) * (v - m);
      dof += static_cast<double>(rounds) - 1.0;
    }
  }
  // A round's shared mean also takes one degree of freedom from the residual (two-way layout).
  dof -= static_cast<double>(rounds) - 1.0;
  layout_estimate out;
  out.within_sd = dof > 0 ? std::sqrt(ss / dof) : 0.0;

  const std::vector<double> mc = means_of(c), mb = means_of(b);
  out.ratio = welch_t(mc, mb, confidence);
  const double r = static_cast<double>(rounds);
  const auto layout_var = [&](const std::vector<double>& means) {
    if (means.size() < 2) return 0.0;
    return std::max(0.0, std::pow(sd(means), 2) - out.within_sd * out.within_sd / r);
  };
  const double vc = layout_var(mc), vb = layout_var(mb);
  out.layout_sd_candidate = std::sqrt(vc);
  out.layout_sd_baseline = std::sqrt(vb);
  const double kc = static_cast<double>(mc.size()), kb = static_cast<double>(mb.size());
  const double from_layouts = vc / kc + vb / kb;
  const double total = from_layouts + out.within_sd * out.within_sd / r * (1.0 / kc + 1.0 / kb);
  out.layout_share = total > 0 ? from_layouts / total : 0.0;
  return out;
}

}  // namespace abtest::stats
