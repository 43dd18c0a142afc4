// `abtest history`: per (variant, metric) series of nights from the store (a night: an experiment,
// or the shards of one group), change points (stored with their triage state, confirmed by an A/B
// with --confirm), a CUSUM alarm for the latest night; `history triage` sets a change point's state.
// A change point the A/B confirms slower opens an alert (or attaches to the open one of the same
// change); an alert whose metrics are back at their old level closes as fixed (design §9.1).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <map>

#include "db/time_text.hpp"
#include "harness/alerts/sightings.hpp"
#include "harness/changepoint/canary.hpp"
#include "harness/changepoint/detect.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/errors.hpp"
#include "harness/experiment/history_confirm.hpp"
#include "harness/experiment/night_series.hpp"
#include "harness/stats/metric_policy_json.hpp"

namespace abtest::cli {
namespace {

struct history_flags {
  std::string variant, metric, kind, method = "e-divisive", canary = "canary";
  double margin_pct = 1.0;
  bool fail_on_regression = false, confirm = false;
  int confirm_rounds = 10;
  std::int64_t triage_id = 0;
  std::string triage_state, triage_note;
};

std::optional<db::experiment_kind> kind_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  try {
    return db::parse<db::experiment_kind>(text);
  } catch (const std::invalid_argument& e) {
    throw usage_error(fmt::format("--kind {}: {} — e.g. --kind nightly", text, e.what()));
  }
}

// The alert of a nightly change (variant, night at the change point) holding `metric`, if any.
std::optional<db::alert_record> alert_of(const std::vector<db::alert_record>& alerts, const std::string& variant,
                                         const std::string& metric, const std::string& night) {
  for (const auto& a : alerts)
    if (a.source == db::alert_source::nightly && a.subject == variant && a.change == night)
      for (const auto& m : a.metrics)
        if (m.metric == metric) return a;
  return std::nullopt;
}

// The direction the nights declared: the newest night's plan carries its manifest's `better`
// declarations (run_plan::metric_rules); a night stored before them, or gone, infers from the name.
stats::metric_policy policy_of_nights(db::results_store& store, const std::vector<std::string>& nights, const std::string& metric) {
  for (auto it = nights.rbegin(); it != nights.rend(); ++it)
    if (const auto e = store.find_experiment(*it))
      return stats::resolve_policy(stats::rules_from_json(e->config.value("metric_rules", nlohmann::json::array())), metric,
                                   e->config.value("margin", stats::default_margin));
  return stats::resolve_policy({}, metric, stats::default_margin);
}

int history(const history_flags& f, const global_options& g) {
  auto store = open_store(db_path(g, nullptr));
  const auto kind = kind_of(f.kind);
  changepoint::detect_options options;
  try {
    options.detector = changepoint::parse_method(f.method);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  if (f.confirm_rounds < 2) throw usage_error("--confirm-rounds must be at least 2 for a paired comparison");
  options.e_divisive.min_magnitude = f.margin_pct / 100;
  std::vector<std::pair<std::string, std::string>> keys;
  for (const auto& [v, m] : store.series_keys(kind))
    if ((f.variant.empty() || v == f.variant) && (f.metric.empty() || m == f.metric) && v != f.canary) keys.emplace_back(v, m);
  if (keys.empty())
    throw usage_error(fmt::format("no history for {} / {} — run `abtest matrix --nightly` (or `abtest run`) first",
                                  f.variant.empty() ? "any variant" : f.variant, f.metric.empty() ? "any metric" : f.metric));
  night_index index(store);
  nlohmann::json out = nlohmann::json::array();
  bool regression = false;
  std::map<std::string, std::map<std::string, std::vector<alerts::night_median>>> levels;  // variant → metric → nights
  auto known_alerts = store.list_alerts();  // read again only when a confirmation records a sighting
  for (const auto& [variant, metric] : keys) {
    const auto [used, normalized] = nights_of(store, index, variant, metric, kind, f.canary);
    std::vector<double> x;
    for (const auto& p : used) x.push_back(p.value);
    for (const auto& p : used) levels[variant][metric].push_back({p.experiment, p.median});
    const auto a = changepoint::analyze_series(x, options);
    // A rate (items per second, MB/s, or declared `better: higher`) regresses when it falls: its
    // upward shifts are improvements.
    std::vector<std::string> nights;
    for (const auto& p : used) nights.push_back(p.experiment);
    const stats::metric_policy policy = policy_of_nights(store, nights, metric);
    const bool higher_is_better = policy.direction == stats::better::higher;
    nlohmann::json cps = nlohmann::json::array();
    for (const auto& cp : a.points) {
      const auto& at = used[cp.index];
      db::changepoint_record r{0, variant, metric, at.experiment, at.started_at, cp.magnitude, cp.p_value,
                               db::changepoint_state::new_, std::nullopt};
      r.id = store.record_changepoint(r);
      std::string state = "new";
      for (const auto& s : store.list_changepoints(variant, metric))
        if (s.id == r.id) state = std::string(db::to_string(s.state));
      bool counts = state == "new" && (higher_is_better ? cp.magnitude < 0 : cp.magnitude > 0);
      nlohmann::json j{{"id", r.id}, {"experiment", at.experiment}, {"at", db::format_utc(at.started_at)},
                       {"magnitude", cp.magnitude}, {"p_value", cp.p_value}, {"state", state}};
      if (f.confirm && state == "new") {
        // The A/B of the last night before the change against the night of the change.
        const confirmation c = confirm_changepoint(store,
                                                   {r.id, variant, metric, used[cp.index - 1].experiment, at.experiment,
                                                    f.confirm_rounds, f.margin_pct / 100, g.manifest, g.command_line},
                                                   context_for(g));
        j["confirm"] = {{"verdict", c.verdict}, {"experiment", c.experiment}, {"note", c.note},
                        {"before", used[cp.index - 1].experiment}, {"after", at.experiment}};
        if (c.ratio) j["confirm"]["ratio"] = *c.ratio;
        if (c.ci_low) j["confirm"]["ci_low"] = *c.ci_low;
        if (c.ci_high) j["confirm"]["ci_high"] = *c.ci_high;
        // An A/B that ran and did not find the change slower clears it; one that could not run leaves
        // the statistics of the history to decide.
        if (!c.verdict.empty() && c.verdict != "slower") counts = false;
        if (c.verdict == "slower" && c.ratio) {
          const alerts::nightly_change change{variant, metric, at.experiment, c.experiment, *c.ratio, c.ci_low, c.ci_high,
                                              used[cp.index - 1].median, at.median};
          j["confirm"]["alert"] = store.record_sightings(std::vector{alerts::nightly_sighting(change)}).front();
          known_alerts = store.list_alerts();
        }
      }
      // A change whose alert was triaged (acknowledged, expected, invalid) or closed as fixed no
      // longer fails the night: someone has looked at it, or it is gone.
      if (const auto a = alert_of(known_alerts, variant, metric, at.experiment)) {
        j["alert"] = {{"id", a->id}, {"state", db::to_string(a->state)}};
        if (a->state != db::alert_state::new_) counts = false;
      }
      regression |= counts;
      cps.push_back(j);
    }
    const auto worse = higher_is_better ? changepoint::alarm::faster : changepoint::alarm::slower;
    const auto better = higher_is_better ? changepoint::alarm::slower : changepoint::alarm::faster;
    const std::string alarm = a.cusum.state == worse ? "slower" : a.cusum.state == better ? "faster" : "none";
    regression |= alarm == "slower";
    nlohmann::json series = nlohmann::json::array();
    for (std::size_t i = 0; i < used.size(); ++i) {
      nlohmann::json p{{"experiment", used[i].experiment}, {"median", used[i].median}, {"value", a.screened[i]}};
      if (used[i].experiments.size() > 1) p["experiments"] = used[i].experiments;
      series.push_back(p);
    }
    out.push_back({{"variant", variant}, {"metric", metric}, {"better", stats::to_string(policy.direction)},
                   {"better_from", stats::to_string(policy.direction_from)}, {"nights", used.size()}, {"normalized_by", normalized ? f.canary : ""},
                   {"outliers", a.outliers}, {"changepoints", cps}, {"cusum", {{"alarm", alarm}, {"upper", a.cusum.upper},
                   {"lower", a.cusum.lower}}}, {"series", series}});
    if (!g.json && !g.quiet) {
      fmt::print("{} {}: {} nights{}, {} outliers screened, latest night: {}\n", variant, metric, used.size(),
                 normalized ? fmt::format(" (÷ {})", f.canary) : "", a.outliers.size(),
                 alarm == "none" ? "in control" : "CUSUM alarm, " + alarm);
      for (const auto& j : cps) {
        fmt::print("  change point #{} at {} ({}): {:+.2f}%  p={:.2g}  [{}]\n", j["id"].get<std::int64_t>(),
                   j["experiment"].get<std::string>(), j["at"].get<std::string>(), 100 * j["magnitude"].get<double>(),
                   j["p_value"].get<double>(), j["state"].get<std::string>());
        if (j.contains("confirm")) {
          const auto& c = j["confirm"];
          if (c["verdict"].get<std::string>().empty())
            fmt::print("    A/B {} vs {} not run: {}\n", c["before"].get<std::string>(), c["after"].get<std::string>(),
                       c["note"].get<std::string>());
          else
            fmt::print("    A/B {} vs {}: {}{}{}\n", c["before"].get<std::string>(), c["after"].get<std::string>(),
                       c["verdict"].get<std::string>(), c.contains("ratio") ? fmt::format(", ratio {:.4f}", c["ratio"].get<double>()) : "",
                       c["experiment"].get<std::string>().empty() ? " (" + c["note"].get<std::string>() + ")"
                                                                  : " — experiment " + c["experiment"].get<std::string>());
        }
        if (j.contains("alert"))
          fmt::print("    alert #{} [{}]\n", j["alert"]["id"].get<std::int64_t>(), j["alert"]["state"].get<std::string>());
      }
    }
  }
  nlohmann::json fixed = nlohmann::json::array();
  for (const auto& [variant, series] : levels)
    for (const auto id : alerts::close_recovered(store, variant, series)) {
      fixed.push_back(id);
      if (!g.json && !g.quiet) fmt::print("alert #{} ({}) is fixed: {}\n", id, variant, store.find_alert(id)->events.back().note);
    }
  if (!g.json && !g.quiet) {
    const auto open = store.list_alerts(std::nullopt, /*open_only=*/true);
    if (!open.empty()) fmt::print("{} open alert{} — `abtest alerts` lists them\n", open.size(), open.size() == 1 ? "" : "s");
  }
  if (g.json) std::cout << nlohmann::json({{"method", f.method}, {"series", out}, {"alerts_fixed", fixed}}).dump(2) << "\n";
  return f.fail_on_regression && regression ? static_cast<int>(exit_code::regression) : 0;
}

int triage(const history_flags& f, const global_options& g) {
  db::changepoint_state state;
  try {
    state = db::parse<db::changepoint_state>(f.triage_state);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  auto store = open_store(db_path(g, nullptr));
  store.set_changepoint_state(f.triage_id, state, f.triage_note.empty() ? std::nullopt : std::optional(f.triage_note));
  if (!g.quiet) fmt::print("change point #{} is now {}\n", f.triage_id, f.triage_state);
  return 0;
}

}  // namespace

static const registrar history_command(60, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<history_flags>();
  auto* cmd = app.add_subcommand("history", "per (variant, metric) series, change points and a CUSUM alarm for the latest night");
  cmd->add_option("--variant", f->variant, "one variant key (default: every variant with a series)");
  cmd->add_option("--metric", f->metric, "one metric (default: every metric)");
  cmd->add_option("--kind", f->kind, "only experiments of this kind: nightly, run, matrix, ...");
  cmd->add_option("--method", f->method, "change-point detector: e-divisive (Otava) or pelt (MBIC)");
  cmd->add_option("--canary", f->canary, "variant whose series normalises the others when present (default: canary)");
  cmd->add_option("--margin", f->margin_pct, "minimum change in percent (δ, default 1)");
  cmd->add_flag("--confirm", f->confirm, "run the A/B of the builds on either side of each new change point and record "
                "its verdict; with --fail-on-regression only a change the A/B finds slower fails");
  cmd->add_option("--confirm-rounds", f->confirm_rounds, "rounds of each --confirm A/B (default 10)");
  cmd->add_flag("--fail-on-regression", f->fail_on_regression,
                "exit 1 on a slower change point still in state new, or a slower CUSUM alarm");
  auto* tri = cmd->add_subcommand("triage", "set a change point's state: new, acknowledged, fixed, false_positive");
  tri->add_option("id", f->triage_id, "change point id (from `abtest history`)")->required();
  tri->add_option("state", f->triage_state, "new | acknowledged | fixed | false_positive")->required();
  tri->add_option("--note", f->triage_note, "why");
  cmd->callback([f, &g, &act, tri] {
    act = [f, &g, tri] { return tri->parsed() ? triage(*f, g) : history(*f, g); };
  });
});

}  // namespace abtest::cli
