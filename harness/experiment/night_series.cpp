// The nightly series of `abtest history`: nights from experiments and groups, canary-normalised.
#include "harness/experiment/night_series.hpp"

#include <cmath>

#include "harness/changepoint/canary.hpp"

namespace abtest {
namespace {

// One value per experiment (the first arm running the variant), oldest first.
std::vector<db::series_point> one_per_experiment(std::vector<db::series_point> points) {
  std::vector<db::series_point> out;
  for (auto& p : points)
    if (out.empty() || out.back().experiment_id != p.experiment_id) out.push_back(std::move(p));
  return out;
}

}  // namespace

const std::string& night_index::of(const std::string& experiment) {
  auto it = night_.find(experiment);
  if (it != night_.end()) return it->second;
  const auto e = store_.find_experiment(experiment);
  const std::string group = e ? e->config.value("group", std::string()) : std::string();
  return night_.emplace(experiment, group.empty() ? experiment : "group " + group).first->second;
}

night_series nights_of(db::results_store& store, night_index& nights, const std::string& variant, const std::string& metric,
                       std::optional<db::experiment_kind> kind, const std::string& canary_variant) {
  const auto points = one_per_experiment(store.series(variant, metric, kind));
  std::vector<changepoint::night_value> raw, canary;
  for (const auto& p : points) raw.push_back({p.experiment_id, p.median});
  for (const auto& p : one_per_experiment(store.series(canary_variant, metric, kind))) canary.push_back({p.experiment_id, p.median});
  night_series series;
  series.normalized = !canary.empty();
  std::map<std::string, double> value;
  if (series.normalized) {
    for (const auto& p : changepoint::normalize_by_canary(raw, canary)) value[p.night] = p.value;
  } else {
    for (const auto& p : raw)
      if (p.value > 0) value[p.night] = std::log(p.value);
  }
  auto& out = series.nights;
  std::map<std::string, std::size_t> index;
  std::vector<double> log_median_sum;
  for (const auto& p : points) {
    const auto v = value.find(p.experiment_id);
    if (v == value.end()) continue;
    const std::string& key = nights.of(p.experiment_id);
    auto [it, added] = index.emplace(key, out.size());
    if (added) {
      out.push_back({p.experiment_id, {}, p.started_at, 0, 0});
      log_median_sum.push_back(0);
    }
    auto& n = out[it->second];
    n.experiments.push_back(p.experiment_id);
    n.value += v->second;
    log_median_sum[it->second] += std::log(p.median);
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double k = static_cast<double>(out[i].experiments.size());
    out[i].value /= k;
    out[i].median = std::exp(log_median_sum[i] / k);
  }
  return series;
}

}  // namespace abtest
