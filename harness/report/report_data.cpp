// Reading the report model from the results store (see report_data.hpp).
#include "harness/report/report_data.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "db/time_text.hpp"
#include "harness/report/metric_policy_text.hpp"
#include "harness/stats/metric_policy_json.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::report {
namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string headline(const std::set<std::string>& metrics) {
  if (metrics.count("proof.total_s")) return "proof.total_s";
  for (const auto& m : metrics)
    if (m.size() > 8 && m.ends_with(".total_s")) return m;
  return metrics.empty() ? "" : *metrics.begin();
}

bool is_phase(const std::string& m) {
  return m.starts_with("proof.") && m.ends_with("_s") && m != "proof.total_s" && m != "proof.wall_s" && m != "proof.user_s" &&
         m != "proof.sys_s";
}

}  // namespace

stats::better report_data::direction(const std::string& metric) const {
  for (const auto& v : verdicts)
    if (v.metric == metric && v.details.contains("policy")) return policy_of(v).direction;
  return stats::resolve_policy(metric_rules, metric, stats::default_margin).direction;
}

bool is_regression(const db::verdict_record& v) {
  return v.verdict == db::verdict_kind::slower && !v.immaterial && !stats::is_count_metric(v.metric);
}

namespace {

// Regressions first, then the largest effects; rows without a ratio last.
void sort_for_reading(std::vector<db::verdict_record>& rows) {
  const auto size = [](const db::verdict_record& v) { return v.ratio && *v.ratio > 0 ? std::fabs(std::log(*v.ratio)) : -1.0; };
  std::stable_sort(rows.begin(), rows.end(), [&](const db::verdict_record& a, const db::verdict_record& b) {
    if (is_regression(a) != is_regression(b)) return is_regression(a);
    return size(a) > size(b);
  });
}

// The sign of a worse value on the log scale: +1 for a metric better lower, −1 for one better higher.
double worse_sign(const report_data& r, const std::string& metric) { return r.direction(metric) == stats::better::lower ? 1.0 : -1.0; }

// Effects as the verdicts: the terms whose whole CI lies on the worse side first, then by |effect|.
void sort_for_reading(std::vector<effect_row>& rows, const report_data& r) {
  const auto regression = [&](const effect_row& e) {
    const double w = worse_sign(r, e.metric);
    return e.ci_low && e.ci_high && std::min(*e.ci_low * w, *e.ci_high * w) > 0;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const effect_row& a, const effect_row& b) {
    if (regression(a) != regression(b)) return regression(a);
    return std::fabs(a.estimate) > std::fabs(b.estimate);
  });
}

// Change points: the open (state new) ones that made the metric worse first, then by |magnitude|.
void sort_for_reading(std::vector<changepoint_row>& rows, const report_data& r) {
  const auto alarm = [&](const changepoint_row& c) { return c.state == "new" && c.magnitude * worse_sign(r, c.metric) > 0; };
  std::stable_sort(rows.begin(), rows.end(), [&](const changepoint_row& a, const changepoint_row& b) {
    if (alarm(a) != alarm(b)) return alarm(a);
    return std::fabs(a.magnitude) > std::fabs(b.magnitude);
  });
}

// design §9: a bisection's term is a culprit when it pushes the way of the bisection's overall
// verdict (stored as its verdict row for the searched metric), an offset when it pulls the other way.
// Terms stored with their role (schema 7) keep it — a rejected candidate among them; older ones get
// it from their sign.
void assign_roles(std::vector<effect_row>& effects, const std::vector<db::verdict_record>& verdicts, const report_data& r) {
  for (auto& x : effects) {
    if (!x.role.empty()) continue;
    const auto v = std::find_if(verdicts.begin(), verdicts.end(), [&](const auto& v) { return v.metric == x.metric; });
    if (v == verdicts.end()) continue;
    const auto kind = stats::parse_verdict(db::to_string(v->verdict)).value_or(stats::verdict::inconclusive);
    x.role = x.estimate * stats::log_direction(kind, r.direction(x.metric)) > 0 ? "culprit" : "offset";
  }
}

}  // namespace

report_data load_experiment(db::results_store& store, const std::string& id) {
  const auto e = store.find_experiment(id);
  if (!e) throw std::runtime_error("no experiment " + id + " — `abtest list` shows the recorded ones");
  report_data r;
  r.title = e->project ? *e->project : "abtest";
  r.experiment = e->id;
  r.kind = std::string(db::to_string(e->kind));
  r.started_at = db::format_utc(e->started_at);
  r.status = std::string(db::to_string(e->status));
  if (!e->arms.empty()) r.baseline = e->arms.front().variant;
  r.layouts = e->config.value("layouts", 0);
  r.duet = e->config.value("duet", false);
  r.metric_rules = stats::rules_from_json(e->config.value("metric_rules", nlohmann::json::array()));
  r.verdicts = store.list_verdicts(id);
  sort_for_reading(r.verdicts);
  for (const auto& x : store.list_effects(id))
    r.effects.push_back({x.metric, x.term, x.estimate, x.ci_low, x.ci_high, x.p_adjusted, x.role.value_or("")});
  sort_for_reading(r.effects, r);
  if (e->kind == db::experiment_kind::bisect) assign_roles(r.effects, r.verdicts, r);
  // per arm: metric → values of the measured, successful samples
  std::map<int, std::map<std::string, std::vector<double>>> by_arm;
  std::set<std::string> metrics;
  for (const auto& s : store.list_samples(id)) {
    if (s.warmup || s.status != sample_status::ok) continue;
    for (const auto& [k, v] : s.metrics) {
      by_arm[s.arm][k].push_back(v);
      metrics.insert(k);
    }
  }
  r.headline_metric = headline(metrics);
  if (const auto counts = store.list_counts(id); !counts.empty()) {
    std::vector<std::string> arm_variants;
    for (const auto& arm : e->arms) arm_variants.push_back(arm.variant);
    r.mechanisms = find_mechanisms(arm_variants, r.verdicts, counts);
  }
  // A variant's layouts (`--layouts K`: K arms of one variant) are pooled, in arm order.
  std::vector<std::string> variants;
  std::map<std::string, std::map<std::string, std::vector<double>>> by_variant;
  for (const auto& arm : e->arms) {
    if (std::find(variants.begin(), variants.end(), arm.variant) == variants.end()) variants.push_back(arm.variant);
    for (const auto& [k, v] : by_arm[arm.idx]) by_variant[arm.variant][k].insert(by_variant[arm.variant][k].end(), v.begin(), v.end());
  }
  for (const auto& variant : variants) {
    const auto& m = by_variant[variant];
    if (const auto it = m.find(r.headline_metric); it != m.end()) r.distributions.push_back({variant, it->second});
    phase_row p{variant, {}};
    for (const auto& [k, v] : m)
      if (is_phase(k)) p.phases[k.substr(6)] = median_of(v);
    if (!p.phases.empty()) r.phases.push_back(std::move(p));
  }
  for (const auto& c : store.list_changepoints())
    if (std::find(variants.begin(), variants.end(), c.variant) != variants.end())
      r.changepoints.push_back({c.id, c.variant, c.metric, c.at_experiment.value_or(""), db::format_utc(c.at_time),
                                std::string(db::to_string(c.state)), c.magnitude, c.p_value});
  sort_for_reading(r.changepoints, r);
  r.alerts = store.list_alerts(std::nullopt, /*open_only=*/true);
  return r;
}

report_data load_nightly(db::results_store& store) {
  const auto latest = store.list_experiments(db::experiment_kind::nightly);
  if (latest.empty()) throw std::runtime_error("no nightly experiment in the database — run `abtest matrix --nightly` first");
  report_data r = load_experiment(store, latest.front().id);
  // A night run in shards (`matrix --group`): the other shards' verdicts, distributions and phases
  // join the newest one's (base and the canary, measured by every shard, are shown once).
  const auto group_of = [](const db::experiment_record& e) { return e.config.value("group", std::string()); };
  const std::string night = group_of(latest.front());
  for (std::size_t i = 1; !night.empty() && i < latest.size(); ++i) {
    if (group_of(latest[i]) != night) continue;
    const report_data more = load_experiment(store, latest[i].id);
    std::set<std::pair<std::string, std::string>> verdicts;
    std::set<std::string> shown, phased;
    for (const auto& v : r.verdicts) verdicts.emplace(v.variant, v.metric);
    for (const auto& d : r.distributions) shown.insert(d.variant);
    for (const auto& p : r.phases) phased.insert(p.variant);
    for (const auto& v : more.verdicts)
      if (verdicts.emplace(v.variant, v.metric).second) r.verdicts.push_back(v);
    for (const auto& d : more.distributions)
      if (shown.insert(d.variant).second) r.distributions.push_back(d);
    for (const auto& p : more.phases)
      if (phased.insert(p.variant).second) r.phases.push_back(p);
  }
  sort_for_reading(r.verdicts);
  r.changepoints.clear();
  for (const auto& c : store.list_changepoints())
    r.changepoints.push_back({c.id, c.variant, c.metric, c.at_experiment.value_or(""), db::format_utc(c.at_time),
                              std::string(db::to_string(c.state)), c.magnitude, c.p_value});
  sort_for_reading(r.changepoints, r);
  // One point per night: an experiment, or the shards of one group (the mean of their medians).
  // A night's time is its first experiment's, so that every series' point of one night has the same
  // time and the plots can align the series (a variant may be measured by a later shard only).
  std::map<std::string, std::string> night_of;
  std::map<std::string, db::time_point> night_time;
  for (const auto& e : latest) {
    const std::string key = group_of(e).empty() ? e.id : "group " + group_of(e);
    night_of[e.id] = key;
    if (const auto [it, fresh] = night_time.emplace(key, e.started_at); !fresh && e.started_at < it->second) it->second = e.started_at;
  }
  for (const auto& [variant, metric] : store.series_keys(db::experiment_kind::nightly)) {
    trend t{variant, metric, {}};
    std::string last_experiment, last_night;
    double sum = 0;
    int n = 0;
    for (const auto& p : store.series(variant, metric, db::experiment_kind::nightly)) {
      if (p.experiment_id == last_experiment) continue;  // the first arm running the variant
      last_experiment = p.experiment_id;
      const std::string& key = night_of[p.experiment_id];
      if (key != last_night || t.points.empty()) {
        t.points.emplace_back(db::format_utc(night_time.count(key) ? night_time[key] : p.started_at), p.median);
        last_night = key;
        sum = 0;
        n = 0;
      }
      sum += p.median;
      t.points.back().second = sum / ++n;
    }
    r.trends.push_back(std::move(t));
  }
  return r;
}

}  // namespace abtest::report
