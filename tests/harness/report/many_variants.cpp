// The in-memory 64-variant report of the plot tests (see many_variants.hpp).
#include "many_variants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace abtest::report::testing {
namespace {

const char* const toggles[] = {"A1=4", "A2", "A4", "B1", "D4", "C2"};

std::string key_of(unsigned mask) {
  std::string key;
  for (unsigned i = 0; i < 6; ++i)
    if (mask >> i & 1) key += (key.empty() ? "" : "+") + std::string(toggles[i]);
  return key.empty() ? "base" : key;
}

// ln(V/B) of a variant once the incident has landed: A1=4 and B1 alone and together.
double step_of(unsigned mask) {
  const bool a1 = mask & 1, b1 = mask & 8;
  return 0.06 * a1 + 0.06 * b1 + 0.065 * (a1 && b1);
}

}  // namespace

report_data many_variants_report() {
  report_data r;
  r.title = "64-variant matrix";
  r.experiment = "n-12";
  r.kind = "nightly";
  r.status = "complete";
  r.started_at = "2026-11-12T02:00:00.000Z";
  r.baseline = "base";
  r.headline_metric = "proof.total_s";
  std::mt19937 rng(17);
  std::normal_distribution<double> noise(0.0, 0.02);
  for (unsigned mask = 0; mask < 64; ++mask) {
    distribution d{key_of(mask), {}};
    for (int i = 0; i < 8; ++i) d.values.push_back(88.9 * std::exp(step_of(mask) + noise(rng)));
    r.distributions.push_back(d);
    phase_row p{d.variant, {}};
    p.phases = {{"synthesis_s", 50 * std::exp(step_of(mask))}, {"msm_s", 20.0}, {"ntt_s", 8.0}, {"gpu_s", 10.9}};
    r.phases.push_back(p);
    trend t{d.variant, "proof.total_s", {}};
    for (int night = 1; night <= 12; ++night)
      t.points.emplace_back(fmt::format("2026-11-{:02}T02:00:00.000Z", night),
                            88.9 * std::exp((night >= 7 ? step_of(mask) : 0) + noise(rng)));
    r.trends.push_back(t);
    if (step_of(mask) > 0)
      r.changepoints.push_back({static_cast<std::int64_t>(mask), d.variant, "proof.total_s", "n-7", "2026-11-07T02:00:00.000Z", "new",
                                std::exp(step_of(mask)) - 1, 1e-6});
    if (mask == 0) continue;
    db::verdict_record v;
    v.experiment_id = r.experiment;
    v.variant = d.variant;
    v.baseline = "base";
    v.metric = "proof.total_s";
    v.n = 8;
    v.baseline_median = 88.9;
    v.ratio = std::exp(step_of(mask) + noise(rng) / 4);
    v.candidate_median = 88.9 * *v.ratio;
    v.ci_low = *v.ratio * 0.985;
    v.ci_high = *v.ratio * 1.015;
    v.verdict = *v.ci_low > 1 ? db::verdict_kind::slower : *v.ci_high < 1 ? db::verdict_kind::faster : db::verdict_kind::inconclusive;
    r.verdicts.push_back(v);
  }
  // As load_experiment orders them: regressions first, then by |ln ratio|; change points by magnitude.
  std::stable_sort(r.verdicts.begin(), r.verdicts.end(), [](const auto& a, const auto& b) {
    const bool ra = a.verdict == db::verdict_kind::slower, rb = b.verdict == db::verdict_kind::slower;
    return ra != rb ? ra : std::fabs(std::log(*a.ratio)) > std::fabs(std::log(*b.ratio));
  });
  std::stable_sort(r.changepoints.begin(), r.changepoints.end(), [](const auto& a, const auto& b) { return a.magnitude > b.magnitude; });
  for (unsigned i = 0; i < 6; ++i)
    for (unsigned j = i; j < 6; ++j) {
      const std::string term = i == j ? toggles[i] : std::string(toggles[i]) + "*" + toggles[j];
      const double e = term == "A1=4" || term == "B1" ? 0.06 : term == "A1=4*B1" ? 0.065 : noise(rng) / 4;
      r.effects.push_back({"proof.total_s", term, e, e - 0.014, e + 0.014, e > 0.03 ? 1e-9 : 1.0, ""});
    }
  std::stable_sort(r.effects.begin(), r.effects.end(), [](const auto& a, const auto& b) {
    const bool ra = *a.ci_low > 0, rb = *b.ci_low > 0;
    return ra != rb ? ra : std::fabs(a.estimate) > std::fabs(b.estimate);
  });
  return r;
}

}  // namespace abtest::report::testing
