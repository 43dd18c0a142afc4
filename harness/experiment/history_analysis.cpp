// The nightly series analysed, change points confirmed and alerts opened and closed (see history_analysis.hpp).
#include "harness/experiment/history_analysis.hpp"

#include <fmt/format.h>

#include <map>
#include <utility>
#include <vector>

#include "harness/alerts/sightings.hpp"
#include "harness/core/errors.hpp"
#include "harness/experiment/history_confirm.hpp"
#include "harness/experiment/night_series.hpp"
#include "harness/stats/metric_policy_json.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest {
namespace {

// The alert of a nightly change (variant, night at the change point) holding `metric`, if any.
std::optional<db::alert_record> alert_of_change(const std::vector<db::alert_record>& alerts, const std::string& variant,
                                                const std::string& metric, const std::string& night) {
  for (const auto& a : alerts)
    if (a.source == db::alert_source::nightly && a.subject == variant && a.change == night)
      for (const auto& m : a.metrics)
        if (m.metric == metric) return a;
  return std::nullopt;
}

// The direction the nights declared: the newest night's plan carries its manifest's `better`
// declarations (run_plan::metric_rules); a night stored before them, or gone, infers from the name.
stats::metric_policy policy_of_nights(db::results_store& store, const std::vector<night_point>& nights, const std::string& metric) {
  for (auto it = nights.rbegin(); it != nights.rend(); ++it)
    if (const auto e = store.find_experiment(it->experiment))
      return stats::resolve_policy(stats::rules_from_json(e->config.value("metric_rules", nlohmann::json::array())), metric,
                                   e->config.value("margin", stats::default_margin));
  return stats::resolve_policy({}, metric, stats::default_margin);
}

// The (variant, metric) series the request names, the canary's left out: it is the yardstick.
std::vector<std::pair<std::string, std::string>> series_named(db::results_store& store, const history_request& r) {
  std::vector<std::pair<std::string, std::string>> keys;
  for (const auto& [v, m] : store.series_keys(r.kind))
    if ((r.variant.empty() || v == r.variant) && (r.metric.empty() || m == r.metric) && v != r.canary) keys.emplace_back(v, m);
  if (keys.empty())
    throw usage_error(fmt::format("no history for {} / {} — run `abtest matrix --nightly` (or `abtest run`) first",
                                  r.variant.empty() ? "any variant" : r.variant, r.metric.empty() ? "any metric" : r.metric));
  return keys;
}

// One run over the series: what it has learnt of the store's alerts and levels on the way.
class history_run {
 public:
  history_run(db::results_store& store, const history_request& r, const experiment_context& ctx)
      : store_(store), r_(r), ctx_(ctx), index_(store), known_alerts_(store.list_alerts()) {}

  report::history_series series(const std::string& variant, const std::string& metric);
  std::vector<report::history_fixed_alert> close_recovered();
  bool regression() const { return regression_; }

 private:
  report::history_changepoint changepoint(const report::history_series& s, const std::vector<night_point>& used,
                                          const changepoint::change_point& cp);
  report::history_confirmation confirm(const report::history_series& s, std::int64_t id, const night_point& before,
                                       const night_point& at);

  db::results_store& store_;
  const history_request& r_;
  const experiment_context& ctx_;
  night_index index_;
  std::vector<db::alert_record> known_alerts_;  // read again only when a confirmation records a sighting
  std::map<std::string, std::map<std::string, std::vector<alerts::night_median>>> levels_;  // variant → metric → nights
  bool regression_ = false;
};

report::history_series history_run::series(const std::string& variant, const std::string& metric) {
  const auto [used, normalized] = nights_of(store_, index_, variant, metric, r_.kind, r_.canary);
  std::vector<double> x;
  for (const auto& p : used) x.push_back(p.value);
  for (const auto& p : used) levels_[variant][metric].push_back({p.experiment, p.median});
  const auto a = changepoint::analyze_series(x, r_.detect);
  report::history_series s;
  s.variant = variant;
  s.metric = metric;
  s.policy = policy_of_nights(store_, used, metric);
  s.normalized_by = normalized ? r_.canary : "";
  s.outliers = a.outliers;
  for (const auto& cp : a.points) s.changepoints.push_back(changepoint(s, used, cp));
  // A rate (items per second, MB/s, or declared `better: higher`) regresses when it falls: its
  // upward shifts are improvements.
  const bool higher_is_better = s.policy.direction == stats::better::higher;
  const auto worse = higher_is_better ? changepoint::alarm::faster : changepoint::alarm::slower;
  const auto better = higher_is_better ? changepoint::alarm::slower : changepoint::alarm::faster;
  s.alarm = a.cusum.state == worse ? "slower" : a.cusum.state == better ? "faster" : "none";
  regression_ |= s.alarm == "slower";
  s.cusum_upper = a.cusum.upper;
  s.cusum_lower = a.cusum.lower;
  for (std::size_t i = 0; i < used.size(); ++i) s.nights.push_back({used[i].experiment, used[i].experiments, used[i].median, a.screened[i]});
  return s;
}

report::history_changepoint history_run::changepoint(const report::history_series& s, const std::vector<night_point>& used,
                                                     const changepoint::change_point& cp) {
  const auto& at = used[cp.index];
  db::changepoint_record record{0, s.variant, s.metric, at.experiment, at.started_at, cp.magnitude, cp.p_value,
                                db::changepoint_state::new_, std::nullopt};
  report::history_changepoint out;
  out.id = store_.record_changepoint(record);
  out.experiment = at.experiment;
  out.at = at.started_at;
  out.magnitude = cp.magnitude;
  out.p_value = cp.p_value;
  out.state = "new";
  for (const auto& stored : store_.list_changepoints(s.variant, s.metric))
    if (stored.id == out.id) out.state = std::string(db::to_string(stored.state));
  const bool higher_is_better = s.policy.direction == stats::better::higher;
  bool counts = out.state == "new" && (higher_is_better ? cp.magnitude < 0 : cp.magnitude > 0);
  if (r_.confirm && out.state == "new") {
    out.confirm = confirm(s, out.id, used[cp.index - 1], at);
    // An A/B that ran and did not find the change slower clears it; one that could not run leaves
    // the statistics of the history to decide.
    if (!out.confirm->verdict.empty() && out.confirm->verdict != "slower") counts = false;
  }
  // A change whose alert was triaged (acknowledged, expected, invalid) or closed as fixed no
  // longer fails the night: someone has looked at it, or it is gone.
  if (const auto a = alert_of_change(known_alerts_, s.variant, s.metric, at.experiment)) {
    out.alert = report::history_alert{a->id, a->state};
    if (a->state != db::alert_state::new_) counts = false;
  }
  regression_ |= counts;
  return out;
}

// The A/B of the last night before the change against the night of the change; slower, a sighting.
report::history_confirmation history_run::confirm(const report::history_series& s, std::int64_t id, const night_point& before,
                                                  const night_point& at) {
  const confirmation c = confirm_changepoint(
      store_, {id, s.variant, s.metric, before.experiment, at.experiment, r_.confirm_rounds, r_.detect.e_divisive.min_magnitude,
               r_.manifest, r_.command_line},
      ctx_);
  report::history_confirmation out{before.experiment, at.experiment, c.verdict, c.experiment, c.note, c.ratio, c.ci_low, c.ci_high,
                                   std::nullopt};
  if (c.verdict == "slower" && c.ratio) {
    const alerts::nightly_change change{s.variant, s.metric, at.experiment, c.experiment, *c.ratio, c.ci_low, c.ci_high,
                                        before.median, at.median};
    out.alert = store_.record_sightings(std::vector{alerts::nightly_sighting(change)}).front();
    known_alerts_ = store_.list_alerts();
  }
  return out;
}

std::vector<report::history_fixed_alert> history_run::close_recovered() {
  std::vector<report::history_fixed_alert> fixed;
  for (const auto& [variant, series] : levels_)
    for (const auto id : alerts::close_recovered(store_, variant, series))
      fixed.push_back({id, variant, store_.find_alert(id)->events.back().note});
  return fixed;
}

}  // namespace

report::history_result analyze_history(db::results_store& store, const history_request& r, const experiment_context& ctx) {
  const auto keys = series_named(store, r);
  history_run run(store, r, ctx);
  report::history_result out;
  out.method = changepoint::to_string(r.detect.detector);
  for (const auto& [variant, metric] : keys) out.series.push_back(run.series(variant, metric));
  out.alerts_fixed = run.close_recovered();
  out.open_alerts = store.list_alerts(std::nullopt, /*open_only=*/true).size();
  out.regression = run.regression();
  return out;
}

}  // namespace abtest
