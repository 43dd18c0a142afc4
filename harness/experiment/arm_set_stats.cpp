// The oracle's readings of an experiment's arms (arm_set_stats.hpp).
#include "harness/experiment/arm_set_stats.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "harness/core/analysis.hpp"
#include "harness/core/errors.hpp"

namespace abtest {
namespace {

constexpr double no_value = std::numeric_limits<double>::quiet_NaN();

}  // namespace

void fill_log_values(const std::string& metric, arm_set_result& r) {
  r.log_values.assign(r.plan.arms.size(), std::vector<double>(static_cast<std::size_t>(r.plan.rounds), no_value));
  r.runs = static_cast<int>(r.samples.size());
  for (const auto& s : r.samples) {
    if (s.warmup || s.status != sample_status::ok || s.round < 1 || s.round > r.plan.rounds) continue;
    if (!r.analysis.arms[static_cast<std::size_t>(s.arm)].invalid_reason.empty()) continue;
    const auto it = s.metrics.find(metric);
    if (it == s.metrics.end() || !(it->second > 0) || !std::isfinite(it->second)) continue;
    r.log_values[static_cast<std::size_t>(s.arm)][static_cast<std::size_t>(s.round - 1)] = std::log(it->second);
  }
}

std::vector<double> arm_run_seconds(const arm_set_result& r) {
  std::vector<double> sum(r.plan.arms.size(), 0.0), n(r.plan.arms.size(), 0.0);
  double process_s = 0.0;
  std::optional<std::chrono::system_clock::time_point> first, last;
  for (const auto& s : r.samples) {
    const double d = s.duration_s.value_or(0.0);
    process_s += d;
    const auto end = s.started_at + std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::duration<double>(d));
    if (!first || s.started_at < *first) first = s.started_at;
    if (!last || end > *last) last = end;
    if (s.warmup || s.status != sample_status::ok || !(d > 0.0)) continue;
    sum[static_cast<std::size_t>(s.arm)] += d;
    n[static_cast<std::size_t>(s.arm)] += 1.0;
  }
  double around = 0.0;  // per sample
  if (first && last && !r.samples.empty())
    around = std::max(0.0, (std::chrono::duration<double>(*last - *first).count() - process_s) / static_cast<double>(r.samples.size()));
  std::vector<double> out;
  for (std::size_t a = 0; a < sum.size(); ++a) out.push_back(n[a] > 0.0 ? sum[a] / n[a] + around : no_value);
  return out;
}

double sample_seconds(const arm_set_result& r) {
  double sum = 0.0;
  for (const auto& s : r.samples) sum += s.duration_s.value_or(0.0);
  return sum;
}

void require_metric(const std::string& metric, const arm_set_result& r) {
  const std::string bench = metric.substr(0, metric.find('.'));
  std::set<std::string> reported;
  bool ran = false;
  for (const auto& s : r.samples) {
    if (s.warmup || s.status != sample_status::ok || s.benchmark != bench) continue;
    if (s.metrics.count(metric)) return;
    ran = true;
    for (const auto& [name, _] : s.metrics) reported.insert(name);
  }
  if (!ran) return;  // nothing ran well: a failed build or benchmark, which the search skips
  throw usage_error(fmt::format("--metric {}: benchmark {} ran but reports no such metric; it reports {} — pass --metric with one of them",
                                metric, bench, fmt::join(reported, ", ")));
}

std::vector<std::vector<double>> layout_log_means(const arm_set_result& r) {
  const auto groups = variant_groups(r.plan);
  std::vector<std::vector<double>> out(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (const int arm : groups[g]) {
      double sum = 0;
      int n = 0;
      for (const double v : r.log_values[static_cast<std::size_t>(arm)])
        if (std::isfinite(v)) sum += v, ++n;
      out[g].push_back(n > 0 ? sum / n : no_value);
    }
  return out;
}

stats::log_estimate analysed_estimate(const arm_set_result& r, const std::string& metric, double confidence) {
  analysis_options o;
  o.confidence = confidence;
  for (const auto& row : analyze(r.plan, r.samples, o).rows)
    if (row.metric == metric && row.verdict != stats::verdict::invalid) return row.primary;
  return {};
}

}  // namespace abtest
