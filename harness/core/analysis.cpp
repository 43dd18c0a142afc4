// Verdicts from samples: rounds are blocks, so each candidate is compared with the baseline of the
// same round (paired log ratio); a round where either invocation failed is dropped (DESIGN §6).
#include "harness/core/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "harness/stats/confidence_sequence.hpp"
#include "harness/stats/descriptive.hpp"
#include "harness/stats/hodges_lehmann.hpp"
#include "harness/stats/multiple_testing.hpp"
#include "harness/stats/paired_t.hpp"

namespace abtest {
namespace {

using exec::sample_status;

// (arm, benchmark, round) → the measured sample, ok ones only.
using sample_index = std::map<std::tuple<int, std::string, int>, const sample_row*>;

std::string most_common(const std::vector<std::string>& values) {
  std::map<std::string, int> counts;
  for (const auto& v : values) ++counts[v];
  std::string best;
  int best_n = 0;
  for (const auto& [v, n] : counts)
    if (n > best_n) best = v, best_n = n;
  return best;
}

// INVALID (DESIGN §4): a sample that says verified=false, or a digest that differs from the
// baseline's for the same benchmark. The baseline itself is checked for verified=false only.
void check_correctness(const run_plan& plan, const std::vector<sample_row>& samples, std::vector<arm_health>& arms) {
  std::map<std::string, std::string> baseline_digest;
  for (const auto& bench : plan.benchmarks) {
    std::vector<std::string> digests;
    for (const auto& s : samples)
      if (s.arm == 0 && s.benchmark == bench && s.status == sample_status::ok && s.checks.count("digest"))
        digests.push_back(s.checks.at("digest"));
    if (!digests.empty()) baseline_digest[bench] = most_common(digests);
  }
  for (const auto& s : samples) {
    if (s.status != sample_status::ok) continue;
    auto& health = arms[s.arm];
    if (!health.invalid_reason.empty()) continue;
    if (auto it = s.checks.find("verified"); it != s.checks.end() && it->second != "true")
      health.invalid_reason = fmt::format("{}: the benchmark's own check failed (verified = {})", s.benchmark, it->second);
    else if (auto d = s.checks.find("digest"); s.arm != 0 && d != s.checks.end() && baseline_digest.count(s.benchmark) &&
                                                d->second != baseline_digest[s.benchmark])
      health.invalid_reason = fmt::format("{}: digest {} differs from the baseline's {} — the variant computes a different result",
                                          s.benchmark, d->second.substr(0, 12), baseline_digest[s.benchmark].substr(0, 12));
  }
}

}  // namespace

bool is_auxiliary_metric(const std::string& metric) {
  static const std::set<std::string> aux = {"user_s", "sys_s", "minflt", "majflt", "nvcsw", "nivcsw",
                                            "instructions", "cycles", "cache_misses"};
  const auto dot = metric.find('.');
  return aux.count(dot == std::string::npos ? metric : metric.substr(dot + 1)) > 0;
}

stats::better metric_direction(const std::string& metric) { return stats::better_for(metric); }

bool analysis_result::any_invalid() const {
  return std::any_of(arms.begin(), arms.end(), [](const arm_health& a) { return !a.invalid_reason.empty(); });
}
bool analysis_result::any_failed() const {
  return std::any_of(arms.begin(), arms.end(), [](const arm_health& a) { return a.failed > 0; });
}
bool analysis_result::any_slower() const {
  return std::any_of(rows.begin(), rows.end(), [](const verdict_row& r) {
    return r.verdict == stats::verdict::slower && !r.immaterial && !stats::is_count_metric(r.metric);
  });
}

analysis_result analyze(const run_plan& plan, const std::vector<sample_row>& samples, const analysis_options& options) {
  analysis_result result;
  result.arms.resize(plan.arms.size());
  sample_index index;
  for (const auto& s : samples) {
    if (s.warmup || s.arm < 0 || s.arm >= static_cast<int>(plan.arms.size())) continue;
    auto& health = result.arms[s.arm];
    if (s.status == sample_status::ok) {
      ++health.ok;
      index[{s.arm, s.benchmark, s.round}] = &s;
      if (!s.backend.empty()) health.backend = s.backend;
    } else {
      ++health.failed;
      if (health.first_error.empty())
        health.first_error = fmt::format("{} round {}: {} — {}", s.benchmark, s.round, exec::to_string(s.status), s.error);
    }
  }
  check_correctness(plan, samples, result.arms);

  for (int arm = 1; arm < static_cast<int>(plan.arms.size()); ++arm) {
    for (const auto& bench : plan.benchmarks) {
      // The metric names this benchmark reported, in the baseline or the candidate.
      std::set<std::string> metrics;
      for (const auto& [key, s] : index)
        if (std::get<1>(key) == bench && (std::get<0>(key) == 0 || std::get<0>(key) == arm))
          for (const auto& [name, _] : s->metrics) metrics.insert(name);
      for (const auto& metric : metrics) {
        if (is_auxiliary_metric(metric)) continue;
        std::vector<double> base, cand;
        for (const auto& [key, s] : index) {
          if (std::get<0>(key) != arm || std::get<1>(key) != bench) continue;
          const auto b = index.find({0, bench, std::get<2>(key)});
          if (b == index.end()) continue;
          const auto cv = s->metrics.find(metric);
          const auto bv = b->second->metrics.find(metric);
          if (cv == s->metrics.end() || bv == b->second->metrics.end()) continue;
          cand.push_back(cv->second);
          base.push_back(bv->second);
        }
        if (cand.empty()) continue;
        // Phases that did not run (0 s, e.g. GPU phases on a CPU backend) have no log ratio.
        const bool positive = std::all_of(cand.begin(), cand.end(), [](double x) { return x > 0 && std::isfinite(x); }) &&
                              std::all_of(base.begin(), base.end(), [](double x) { return x > 0 && std::isfinite(x); });
        if (!positive) continue;

        verdict_row row;
        row.arm = arm;
        row.variant = plan.arms[arm].key;
        row.baseline = plan.arms[0].key;
        row.benchmark = bench;
        row.metric = metric;
        row.n = static_cast<int>(cand.size());
        row.baseline_median = stats::median(base);
        row.candidate_median = stats::median(cand);
        const auto d = stats::log_differences(cand, base);
        row.primary = plan.adaptive ? stats::msprt_interval(d, options.tau, options.alpha)
                                    : stats::one_sample_t(d, options.confidence);
        row.robust = stats::hodges_lehmann(d, options.confidence);
        result.rows.push_back(std::move(row));
      }
    }
  }

  judge(result, plan, options);
  return result;
}

void judge(analysis_result& result, const run_plan& plan, const analysis_options& options) {
  std::vector<double> p;
  for (const auto& r : result.rows) p.push_back(r.primary.p_value);
  const auto adjusted = stats::holm_adjust(p);
  for (size_t i = 0; i < result.rows.size(); ++i) {
    auto& r = result.rows[i];
    r.p_adjusted = adjusted[i];
    const auto& health = result.arms.at(r.arm);
    if (!health.invalid_reason.empty()) {
      r.verdict = stats::verdict::invalid;
      r.note = health.invalid_reason;
      continue;
    }
    const auto v = stats::decide(r.primary, plan.margin, metric_direction(r.metric));
    r.verdict = v.value;
    r.immaterial = v.immaterial;
    // Holm: a direction is claimed only when it survives the family-wise correction.
    if ((v.value == stats::verdict::slower || v.value == stats::verdict::faster) && r.p_adjusted > options.alpha) {
      r.verdict = stats::verdict::inconclusive;
      r.immaterial = false;
      r.note = fmt::format("p = {:.3g} does not survive Holm across {} comparisons", r.primary.p_value, result.rows.size());
    }
    if (!r.primary.has_ci) r.note = plan.adaptive && r.n < plan.min_rounds ? "fewer rounds than the adaptive minimum"
                                                                           : "too few rounds for a CI";
    if (r.robust.has_ci && r.note.empty()) {
      const auto robust = stats::decide(r.robust, plan.margin, metric_direction(r.metric)).value;
      if (robust != r.verdict && r.verdict != stats::verdict::inconclusive && robust != stats::verdict::inconclusive)
        r.note = fmt::format("robust estimate disagrees: Hodges–Lehmann {:.4f} [{:.4f}, {:.4f}] says {}", r.robust.ratio(),
                             r.robust.ratio_low(), r.robust.ratio_high(), stats::to_string(robust));
    }
  }
}

reference_result compare_to_reference(const manifest& m, const run_plan& plan, const std::vector<sample_row>& samples,
                                      const analysis_options& options) {
  reference_result out;
  if (!m.reference) return out;
  out.present = true;
  out.label = m.reference->label;
  for (const auto& [k, v] : m.reference->params) {
    const auto it = plan.params.find(k);
    const std::string ours = it == plan.params.end() ? "(unset)" : it->second;
    if (ours != v) {
      out.why = fmt::format("recorded at {}={}, this run has {}={}", k, v, k, ours);
      return out;
    }
  }
  out.comparable = true;
  for (const auto& [metric, value] : m.reference->metrics) {
    const auto dot = metric.find('.');
    const std::string bench = metric.substr(0, dot);
    for (int arm = 0; arm < static_cast<int>(plan.arms.size()); ++arm) {
      std::vector<double> d, x;
      for (const auto& s : samples) {
        if (s.warmup || s.arm != arm || s.benchmark != bench || s.status != exec::sample_status::ok) continue;
        const auto it = s.metrics.find(metric);
        if (it == s.metrics.end() || !(it->second > 0)) continue;
        x.push_back(it->second);
        d.push_back(std::log(it->second) - std::log(value));
      }
      if (d.empty()) continue;
      reference_row row;
      row.metric = metric;
      row.reference = value;
      row.variant = plan.arms[arm].key;
      row.n = static_cast<int>(d.size());
      row.median = stats::median(x);
      row.estimate = stats::one_sample_t(d, options.confidence);
      row.verdict = stats::decide(row.estimate, plan.margin, metric_direction(metric)).value;
      out.rows.push_back(std::move(row));
    }
  }
  return out;
}

}  // namespace abtest
