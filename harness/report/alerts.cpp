// Alerts in the reports and in `abtest alerts` (alerts.hpp).
#include "harness/report/alerts.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "db/time_text.hpp"

namespace abtest::report {

nlohmann::json alert_json(const db::alert_record& a) {
  const auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  nlohmann::json metrics = nlohmann::json::array(), events = nlohmann::json::array();
  for (const auto& m : a.metrics)
    metrics.push_back({{"metric", m.metric}, {"ratio", m.ratio}, {"ci_low", opt(m.ci_low)}, {"ci_high", opt(m.ci_high)},
                       {"before_median", opt(m.before_median)}, {"after_median", opt(m.after_median)},
                       {"sightings", m.sightings}});
  for (const auto& e : a.events)
    events.push_back({{"at", db::format_utc(e.at)}, {"from", e.from ? nlohmann::json(db::to_string(*e.from)) : nlohmann::json()},
                      {"to", db::to_string(e.to)}, {"note", e.note}});
  return {{"id", a.id}, {"source", db::to_string(a.source)}, {"subject", a.subject}, {"benchmark", a.benchmark},
          {"change", a.change}, {"state", db::to_string(a.state)}, {"opened_at", db::format_utc(a.opened_at)},
          {"updated_at", db::format_utc(a.updated_at)}, {"metrics", metrics}, {"events", events}};
}

text_table alerts_table(const std::vector<db::alert_record>& alerts) {
  text_table t{{"#", "state", "source", "subject", "benchmark", "change", "metrics", "opened"}, {}};
  for (const auto& a : alerts) {
    std::string metrics;
    for (const auto& m : a.metrics)
      metrics += fmt::format("{}{} {:.3f}× (seen {}×)", metrics.empty() ? "" : ", ", m.metric, m.ratio, m.sightings);
    t.rows.push_back({std::to_string(a.id), std::string(db::to_string(a.state)), std::string(db::to_string(a.source)),
                      a.subject, a.benchmark, a.change, metrics, db::format_utc(a.opened_at).substr(0, 10)});
  }
  return t;
}

namespace {

std::string alert_text(const db::alert_record& a) {
  std::string out = fmt::format("#{} [{}] {} {} · {} · change {} · opened {}\n", a.id, db::to_string(a.state), db::to_string(a.source),
                                a.subject, a.benchmark, a.change, db::format_utc(a.opened_at).substr(0, 19));
  for (const auto& m : a.metrics)
    out += fmt::format("    {:<28} {:.3f}×{}  seen {}×\n", m.metric, m.ratio,
                       m.ci_low && m.ci_high ? fmt::format(" [{:.3f}, {:.3f}]", *m.ci_low, *m.ci_high) : "", m.sightings);
  if (a.events.size() > 1) out += fmt::format("    last: {} — {}\n", db::to_string(a.events.back().to), a.events.back().note);
  return out;
}

}  // namespace

std::string render(const alert_list& l, format f) {
  if (f == format::json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& a : l.alerts) out.push_back(alert_json(a));
    return out.dump(2) + "\n";
  }
  if (f != format::terminal) throw std::invalid_argument("alerts has no markdown or HTML output of its own — `abtest report --nightly` lists them");
  if (l.alerts.empty())
    return fmt::format("no {} alerts{}\n", l.which, l.which == "open" ? " (--all lists the closed ones too)" : "");
  std::string out;
  for (const auto& a : l.alerts) out += alert_text(a);
  return out;
}

std::string render(const alert_triaged& t, format f) {
  if (f == format::json) return alert_json(t.alert).dump(2) + "\n";
  if (f != format::terminal) throw std::invalid_argument("a triage has no markdown or HTML output");
  return fmt::format("alert #{} is now {}\n", t.alert.id, db::to_string(t.alert.state));
}

}  // namespace abtest::report
