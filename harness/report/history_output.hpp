// What `abtest history` shows: per (variant, metric) series of nights, its change points with their
// triage state, confirming A/B and alert, the CUSUM alarm of the latest night, and the alerts the
// nights closed as fixed — for the terminal and --json (design §9).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/records.hpp"
#include "harness/report/exporter.hpp"
#include "harness/stats/metric_policy.hpp"

namespace abtest::report {

// `--confirm`'s A/B of the night before a change point against the night at it.
struct history_confirmation {
  std::string before, after;  // the two nights' experiments
  std::string verdict;        // slower | faster | same | inconclusive | invalid; "" when it could not run
  std::string experiment;     // the A/B's experiment ("" when nothing was measured)
  std::string note;           // why it could not run, or how the arms were obtained
  std::optional<double> ratio, ci_low, ci_high;
  std::optional<std::int64_t> alert;  // a slower A/B: the alert its sighting opened or attached to
};

// The alert of the change a change point marks, as the store holds it after this run.
struct history_alert {
  std::int64_t id = 0;
  db::alert_state state = db::alert_state::new_;
};

struct history_changepoint {
  std::int64_t id = 0;      // the stored change point
  std::string experiment;   // the night at the change
  db::time_point at{};      // when that night started
  double magnitude = 0;     // the relative shift of the level: exp(mean after − mean before) − 1
  double p_value = 0;
  std::string state;        // its triage state: new, acknowledged, fixed, false_positive
  std::optional<history_confirmation> confirm;  // with --confirm, for a change point in state new
  std::optional<history_alert> alert;
};

// One night of a series.
struct history_night {
  std::string experiment;                // the night's first experiment
  std::vector<std::string> experiments;  // the experiments of the night (shown when more than one)
  double median = 0;                     // raw
  double value = 0;                      // what the detectors saw after screening (log scale)
};

struct history_series {
  std::string variant, metric;
  stats::metric_policy policy;       // the direction the nights declared
  std::string normalized_by;         // the canary's variant when the series was divided by it, else ""
  std::vector<std::size_t> outliers; // indices of the nights screened out
  std::vector<history_changepoint> changepoints;
  std::string alarm;                 // CUSUM on the latest night: slower | faster | none (in the metric's worse way)
  double cusum_upper = 0, cusum_lower = 0;
  std::vector<history_night> nights;  // oldest first
};

// An alert the nights closed as fixed, with the note the store recorded.
struct history_fixed_alert {
  std::int64_t id = 0;
  std::string variant;
  std::string note;
};

struct history_result {
  std::string method;  // the detector: e-divisive | pelt
  std::vector<history_series> series;
  std::vector<history_fixed_alert> alerts_fixed;
  std::size_t open_alerts = 0;  // after this run, every source
  bool regression = false;      // a slower change point still counting, or a slower CUSUM alarm
};

// terminal: a line per series ("A1 proof.total_s: 12 nights, 0 outliers screened, latest night: in
// control"), a line per change point with its A/B and alert under it, then the alerts fixed and the
// number still open; json: {method, series[] of {variant, metric, better, better_from, nights,
// normalized_by, outliers, changepoints[], cusum, series[]}, alerts_fixed[] (ids)}.
std::string render(const history_result& r, format f);

}  // namespace abtest::report
