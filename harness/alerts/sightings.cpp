// From what the history and `pr` confirm to alerts in the store, and back to fixed (design §9.1).
#include "harness/alerts/sightings.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/alerts/recovery.hpp"

namespace abtest::alerts {

std::string benchmark_of(std::string_view metric) { return std::string(metric.substr(0, metric.find('.'))); }

db::alert_sighting nightly_sighting(const nightly_change& c) {
  db::alert_sighting s;
  s.source = db::alert_source::nightly;
  s.subject = c.variant;
  s.benchmark = benchmark_of(c.metric);
  s.metric = c.metric;
  s.change = c.night;
  s.ratio = c.ratio;
  s.ci_low = c.ci_low;
  s.ci_high = c.ci_high;
  s.before_median = c.before_median;
  s.after_median = c.after_median;
  if (!c.confirmed_by.empty()) s.experiment_id = c.confirmed_by;
  return s;
}

namespace {

// The medians from the change's night on; empty when the series does not hold that night.
std::vector<double> since_change(const std::vector<night_median>& nights, const std::string& change) {
  const auto at = std::find_if(nights.begin(), nights.end(), [&](const night_median& n) { return n.experiment == change; });
  std::vector<double> out;
  for (auto it = at; it != nights.end(); ++it) out.push_back(it->median);
  return out;
}

}  // namespace

std::vector<std::int64_t> close_recovered(db::results_store& store, const std::string& variant,
                                          const std::map<std::string, std::vector<night_median>>& series) {
  std::vector<std::int64_t> closed;
  for (const auto& alert : store.list_alerts(std::nullopt, /*open_only=*/true)) {
    if (alert.source != db::alert_source::nightly || alert.subject != variant) continue;
    std::vector<std::string> back;
    bool all_back = true;
    for (const auto& m : alert.metrics) {
      const auto s = series.find(m.metric);
      if (s == series.end()) continue;  // not in this history: judged when it is
      const auto nights = since_change(s->second, alert.change);
      if (!m.before_median || !m.after_median || !recovered(*m.before_median, *m.after_median, nights)) {
        all_back = false;
        break;
      }
      back.push_back(fmt::format("{} {:.4g} (was {:.4g} before the change, {:.4g} at it)", m.metric, nights.back(),
                                 *m.before_median, *m.after_median));
    }
    if (!all_back || back.empty()) continue;
    store.set_alert_state(alert.id, db::alert_state::fixed,
                          fmt::format("back to the old level on the last {} nights: {}", recovery_nights, fmt::join(back, "; ")));
    closed.push_back(alert.id);
  }
  return closed;
}

}  // namespace abtest::alerts
