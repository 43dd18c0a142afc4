// One variant across two experiments, unpaired (see unpaired_comparison.hpp).
#include "harness/experiment/unpaired_comparison.hpp"

#include <fmt/format.h>

#include <map>
#include <vector>

#include "harness/core/errors.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/stats/descriptive.hpp"
#include "harness/stats/welch.hpp"

namespace abtest {
namespace {

int arm_of(const run_plan& p, const std::string& id, const std::string& key) {
  for (size_t i = 0; i < p.arms.size(); ++i)
    if (p.arms[i].key == key) return static_cast<int>(i);
  throw usage_error(fmt::format("experiment {} has no arm {} — pick one with --variant", id, key));
}

// The measured values of `arm` per metric: successful samples only, auxiliary metrics left out.
std::map<std::string, std::vector<double>> values_of(const std::vector<sample>& rows, int arm) {
  std::map<std::string, std::vector<double>> out;
  for (const auto& s : rows)
    if (!s.warmup && s.arm == arm && s.status == sample_status::ok)
      for (const auto& [k, v] : s.metrics)
        if (v > 0 && !is_auxiliary_metric(k)) out[k].push_back(v);
  return out;
}

}  // namespace

unpaired_comparison compare_unpaired(db::results_store& store, const db::experiment_record& before,
                                     const db::experiment_record& after, const std::string& variant, std::optional<double> margin) {
  const auto plan_a = run_plan::from_json(before.config), plan_b = run_plan::from_json(after.config);
  unpaired_comparison out;
  out.variant = variant.empty() ? plan_a.arms[0].key : variant;
  const int arm_a = arm_of(plan_a, before.id, out.variant), arm_b = arm_of(plan_b, after.id, out.variant);
  const auto va = values_of(store.list_samples(before.id), arm_a), vb = values_of(store.list_samples(after.id), arm_b);
  run_plan plan = plan_a;
  plan.margin = margin.value_or(plan_a.margin);
  plan.adaptive = false;  // Welch's CI is a fixed-n interval
  analysis_result& analysis = out.analysis;
  analysis.arms.resize(2);
  for (const auto& [metric, xa] : va) {
    const auto it = vb.find(metric);
    if (it == vb.end()) continue;
    verdict_row row;
    row.arm = 1;
    row.variant = row.baseline = out.variant;
    row.benchmark = metric.substr(0, metric.find('.'));
    row.metric = metric;
    row.primary = stats::welch_log_ratio(it->second, xa);
    row.n = row.primary.n;
    row.baseline_median = stats::median(xa);
    row.candidate_median = stats::median(it->second);
    analysis.rows.push_back(std::move(row));
  }
  judge(analysis, plan);
  return out;
}

}  // namespace abtest
