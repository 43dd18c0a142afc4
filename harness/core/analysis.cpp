// Verdicts from samples: rounds are blocks, so each candidate is compared with the baseline of the
// same round (paired log ratio); a round where either invocation failed is dropped (design §6).
#include "harness/core/analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "harness/stats/confidence_sequence.hpp"
#include "harness/stats/crossover.hpp"
#include "harness/stats/descriptive.hpp"
#include "harness/stats/hodges_lehmann.hpp"
#include "harness/stats/layouts.hpp"
#include "harness/stats/multiple_testing.hpp"
#include "harness/stats/paired_t.hpp"

namespace abtest {
namespace {


// (arm, benchmark, round) → the measured sample, ok ones only.
using sample_index = std::map<std::tuple<int, std::string, int>, const sample*>;

std::string most_common(const std::vector<std::string>& values) {
  std::map<std::string, int> counts;
  for (const auto& v : values) ++counts[v];
  std::string best;
  int best_n = 0;
  for (const auto& [v, n] : counts)
    if (n > best_n) best = v, best_n = n;
  return best;
}

// INVALID (design §4): a sample that says verified=false, or a digest that differs from the
// baseline's for the same benchmark. The baseline itself is checked for verified=false only.
void check_correctness(const run_plan& plan, const std::vector<sample>& samples, std::vector<arm_health>& arms) {
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

// A value a log ratio can be taken of.
bool positive(double x) { return x > 0 && std::isfinite(x); }

bool all_positive(const std::vector<double>& xs) { return std::all_of(xs.begin(), xs.end(), positive); }

// The metric names `bench` reported in any of `arms`.
std::set<std::string> reported_metrics(const sample_index& index, const std::string& bench, const std::vector<int>& arms) {
  std::set<std::string> metrics;
  for (const auto& [key, s] : index)
    if (std::get<1>(key) == bench && std::find(arms.begin(), arms.end(), std::get<0>(key)) != arms.end())
      for (const auto& [name, _] : s->metrics) metrics.insert(name);
  return metrics;
}

verdict_row row_for(const run_plan& plan, int arm, const std::string& bench, const std::string& metric, int n,
                    const std::vector<double>& base, const std::vector<double>& cand) {
  verdict_row row;
  row.arm = arm;
  row.variant = plan.arms[arm].key;
  row.baseline = plan.arms[0].key;
  row.benchmark = bench;
  row.metric = metric;
  row.n = n;
  row.baseline_median = stats::median(base);
  row.candidate_median = stats::median(cand);
  return row;
}

// With layouts (design §6): the rounds in which every layout of both variants has a positive value
// of `metric` are kept, and the two-level estimate compares the variants' layout means, so the
// interval carries the variance between layouts (Kalibera & Jones 2013).
void add_layout_rows(const run_plan& plan, const sample_index& index, const std::vector<int>& base_arms,
                     const std::vector<int>& cand_arms, const std::string& bench, const analysis_options& options,
                     std::vector<verdict_row>& rows) {
  std::vector<int> arms = base_arms;
  arms.insert(arms.end(), cand_arms.begin(), cand_arms.end());
  std::set<int> rounds;
  for (const auto& [key, _] : index)
    if (std::get<1>(key) == bench) rounds.insert(std::get<2>(key));
  for (const auto& metric : reported_metrics(index, bench, arms)) {
    if (is_auxiliary_metric(metric)) continue;
    auto value = [&](int arm, int round) -> double {
      const auto it = index.find({arm, bench, round});
      if (it == index.end()) return 0;
      const auto m = it->second->metrics.find(metric);
      return m == it->second->metrics.end() ? 0 : m->second;
    };
    std::vector<int> complete;
    for (int r : rounds)
      if (std::all_of(arms.begin(), arms.end(), [&](int a) { return positive(value(a, r)); }))
        complete.push_back(r);
    if (complete.empty()) continue;
    stats::layout_samples base(base_arms.size()), cand(cand_arms.size());
    std::vector<double> all_base, all_cand;
    for (int r : complete) {
      for (size_t k = 0; k < base_arms.size(); ++k) all_base.push_back(base[k].emplace_back(value(base_arms[k], r)));
      for (size_t k = 0; k < cand_arms.size(); ++k) all_cand.push_back(cand[k].emplace_back(value(cand_arms[k], r)));
    }
    verdict_row row = row_for(plan, cand_arms.front(), bench, metric, static_cast<int>(complete.size()), all_base, all_cand);
    const stats::layout_estimate e = stats::two_level_log_ratio(cand, base, options.confidence);
    row.primary = e.ratio;
    row.layouts = layout_split{static_cast<int>(base_arms.size()), static_cast<int>(cand_arms.size()),
                               e.layout_sd_baseline, e.layout_sd_candidate, e.within_sd, e.layout_share};
    rows.push_back(std::move(row));
  }
}

}  // namespace

bool is_auxiliary_metric(const std::string& metric) {
  static const std::set<std::string> aux = {"user_s", "sys_s", "minflt", "majflt", "nvcsw", "nivcsw",
                                            "instructions", "cycles", "cache_misses", "threads"};
  const auto dot = metric.find('.');
  return aux.count(dot == std::string::npos ? metric : metric.substr(dot + 1)) > 0;
}

stats::metric_policy metric_policy_of(const manifest& m, const std::string& metric, double default_margin) {
  return stats::resolve_policy(m.metric_rules, metric, default_margin);
}
stats::better metric_direction(const manifest& m, const std::string& metric) { return metric_policy_of(m, metric).direction; }

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

analysis_result analyze(const run_plan& plan, const std::vector<sample>& samples, const analysis_options& options) {
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
        health.first_error = fmt::format("{} round {}: {} — {}", s.benchmark, s.round, to_string(s.status), s.error);
    }
  }
  check_correctness(plan, samples, result.arms);

  const auto groups = variant_groups(plan);
  // A layout that computed a wrong result makes its whole variant INVALID.
  for (const auto& group : groups)
    for (int a : group)
      if (!result.arms[a].invalid_reason.empty())
        for (int other : group)
          if (result.arms[other].invalid_reason.empty()) result.arms[other].invalid_reason = result.arms[a].invalid_reason;

  for (size_t g = 1; g < groups.size(); ++g) {
    for (const auto& bench : plan.benchmarks) {
      if (groups[g].size() > 1) {
        add_layout_rows(plan, index, groups[0], groups[g], bench, options, result.rows);
        continue;
      }
      const int arm = groups[g][0];
      // The metric names this benchmark reported, in the baseline or the candidate.
      for (const auto& metric : reported_metrics(index, bench, {0, arm})) {
        if (is_auxiliary_metric(metric)) continue;
        std::vector<double> base, cand;
        std::vector<int> rounds;
        for (const auto& [key, s] : index) {
          if (std::get<0>(key) != arm || std::get<1>(key) != bench) continue;
          const auto b = index.find({0, bench, std::get<2>(key)});
          if (b == index.end()) continue;
          const auto cv = s->metrics.find(metric);
          const auto bv = b->second->metrics.find(metric);
          if (cv == s->metrics.end() || bv == b->second->metrics.end()) continue;
          cand.push_back(cv->second);
          base.push_back(bv->second);
          rounds.push_back(std::get<2>(key));
        }
        if (cand.empty()) continue;
        // Phases that did not run (0 s, e.g. GPU phases on a CPU backend) have no log ratio.
        if (!all_positive(cand) || !all_positive(base)) continue;

        verdict_row row = row_for(plan, arm, bench, metric, static_cast<int>(cand.size()), base, cand);
        const auto d = stats::log_differences(cand, base);
        if (plan.duet) {
          // The duet's core and start order, balanced by the schedule, taken out of the estimate: the
          // swap pairs' means cancel the core, a fit on them the start order.
          std::vector<double> core, order;
          std::vector<int> pair;
          for (const int r : rounds) {
            core.push_back(duet_baseline_on_first_core(r) ? 1.0 : -1.0);
            order.push_back(duet_baseline_starts_first(r) ? 1.0 : -1.0);
            pair.push_back(duet_swap_pair(r));
          }
          row.primary = stats::crossover_t(d, core, order, pair, options.confidence);
        } else {
          row.primary = plan.adaptive ? stats::msprt_interval(d, options.tau, options.alpha)
                                      : stats::one_sample_t(d, options.confidence);
        }
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
    r.policy = plan.policy(r.metric);
    const auto& health = result.arms.at(r.arm);
    if (!health.invalid_reason.empty()) {
      r.verdict = stats::verdict::invalid;
      r.note = health.invalid_reason;
      continue;
    }
    const auto v = stats::decide(r.primary, r.policy.margin, r.policy.direction);
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
      const auto robust = stats::decide(r.robust, r.policy.margin, r.policy.direction).value;
      if (robust != r.verdict && r.verdict != stats::verdict::inconclusive && robust != stats::verdict::inconclusive)
        r.note = fmt::format("robust estimate disagrees: Hodges–Lehmann {:.4f} [{:.4f}, {:.4f}] says {}", r.robust.ratio(),
                             r.robust.ratio_low(), r.robust.ratio_high(), stats::to_string(robust));
    }
  }
}

reference_result compare_to_reference(const manifest& m, const run_plan& plan, const std::vector<sample>& samples,
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
    for (const auto& group : variant_groups(plan)) {
      // With layouts, each layout's mean is one unit: the interval carries the layout variance.
      std::vector<double> d, x;
      for (int arm : group) {
        std::vector<double> logs;
        for (const auto& s : samples) {
          if (s.warmup || s.arm != arm || s.benchmark != bench || s.status != sample_status::ok) continue;
          const auto it = s.metrics.find(metric);
          if (it == s.metrics.end() || !(it->second > 0)) continue;
          x.push_back(it->second);
          logs.push_back(std::log(it->second) - std::log(value));
        }
        if (group.size() == 1) d = logs;
        else if (!logs.empty()) d.push_back(stats::mean(logs));
      }
      if (d.empty()) continue;
      const int arm = group.front();
      reference_row row;
      row.metric = metric;
      row.reference = value;
      row.variant = plan.arms[arm].key;
      row.n = static_cast<int>(x.size());
      row.median = stats::median(x);
      row.estimate = stats::one_sample_t(d, options.confidence);
      row.policy = plan.policy(metric);
      row.verdict = stats::decide(row.estimate, row.policy.margin, row.policy.direction).value;
      out.rows.push_back(std::move(row));
    }
  }
  return out;
}

}  // namespace abtest
