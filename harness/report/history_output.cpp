// The nightly series as `abtest history` shows them, for the terminal and --json.
#include "harness/report/history_output.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "db/time_text.hpp"

namespace abtest::report {
namespace {

nlohmann::json confirmation_json(const history_confirmation& c) {
  nlohmann::json j{{"verdict", c.verdict}, {"experiment", c.experiment}, {"note", c.note}, {"before", c.before}, {"after", c.after}};
  if (c.ratio) j["ratio"] = *c.ratio;
  if (c.ci_low) j["ci_low"] = *c.ci_low;
  if (c.ci_high) j["ci_high"] = *c.ci_high;
  if (c.alert) j["alert"] = *c.alert;
  return j;
}

nlohmann::json changepoint_json(const history_changepoint& cp) {
  nlohmann::json j{{"id", cp.id}, {"experiment", cp.experiment}, {"at", db::format_utc(cp.at)},
                   {"magnitude", cp.magnitude}, {"p_value", cp.p_value}, {"state", cp.state}};
  if (cp.confirm) j["confirm"] = confirmation_json(*cp.confirm);
  if (cp.alert) j["alert"] = {{"id", cp.alert->id}, {"state", db::to_string(cp.alert->state)}};
  return j;
}

nlohmann::json series_json(const history_series& s) {
  nlohmann::json cps = nlohmann::json::array();
  for (const auto& cp : s.changepoints) cps.push_back(changepoint_json(cp));
  nlohmann::json nights = nlohmann::json::array();
  for (const auto& n : s.nights) {
    nlohmann::json p{{"experiment", n.experiment}, {"median", n.median}, {"value", n.value}};
    if (n.experiments.size() > 1) p["experiments"] = n.experiments;
    nights.push_back(p);
  }
  return {{"variant", s.variant}, {"metric", s.metric}, {"better", stats::to_string(s.policy.direction)},
          {"better_from", stats::to_string(s.policy.direction_from)}, {"nights", s.nights.size()},
          {"normalized_by", s.normalized_by}, {"outliers", s.outliers}, {"changepoints", cps},
          {"cusum", {{"alarm", s.alarm}, {"upper", s.cusum_upper}, {"lower", s.cusum_lower}}}, {"series", nights}};
}

nlohmann::json to_json(const history_result& r) {
  nlohmann::json series = nlohmann::json::array();
  for (const auto& s : r.series) series.push_back(series_json(s));
  nlohmann::json fixed = nlohmann::json::array();
  for (const auto& a : r.alerts_fixed) fixed.push_back(a.id);
  return {{"method", r.method}, {"series", series}, {"alerts_fixed", fixed}};
}

// "    A/B N1 vs N2: slower, ratio 1.0800 — experiment ID", or why it did not run.
std::string confirmation_text(const history_confirmation& c) {
  if (c.verdict.empty()) return fmt::format("    A/B {} vs {} not run: {}\n", c.before, c.after, c.note);
  return fmt::format("    A/B {} vs {}: {}{}{}\n", c.before, c.after, c.verdict, c.ratio ? fmt::format(", ratio {:.4f}", *c.ratio) : "",
                     c.experiment.empty() ? " (" + c.note + ")" : " — experiment " + c.experiment);
}

std::string series_text(const history_series& s) {
  std::string out = fmt::format("{} {}: {} nights{}, {} outliers screened, latest night: {}\n", s.variant, s.metric, s.nights.size(),
                                s.normalized_by.empty() ? "" : fmt::format(" (÷ {})", s.normalized_by), s.outliers.size(),
                                s.alarm == "none" ? "in control" : "CUSUM alarm, " + s.alarm);
  for (const auto& cp : s.changepoints) {
    out += fmt::format("  change point #{} at {} ({}): {:+.2f}%  p={:.2g}  [{}]\n", cp.id, cp.experiment, db::format_utc(cp.at),
                       100 * cp.magnitude, cp.p_value, cp.state);
    if (cp.confirm) out += confirmation_text(*cp.confirm);
    if (cp.alert) out += fmt::format("    alert #{} [{}]\n", cp.alert->id, db::to_string(cp.alert->state));
  }
  return out;
}

std::string to_text(const history_result& r) {
  std::string out;
  for (const auto& s : r.series) out += series_text(s);
  for (const auto& a : r.alerts_fixed) out += fmt::format("alert #{} ({}) is fixed: {}\n", a.id, a.variant, a.note);
  if (r.open_alerts > 0)
    out += fmt::format("{} open alert{} — `abtest alerts` lists them\n", r.open_alerts, r.open_alerts == 1 ? "" : "s");
  return out;
}

}  // namespace

std::string render(const history_result& r, format f) {
  if (f == format::json) return to_json(r).dump(2) + "\n";
  if (f == format::terminal) return to_text(r);
  throw std::invalid_argument("history has no markdown or HTML output — `abtest report --nightly` writes one");
}

}  // namespace abtest::report
