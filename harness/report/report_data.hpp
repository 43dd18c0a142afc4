// The report model: what every exporter shows, read once from the results store.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/report/mechanisms.hpp"
#include "harness/stats/metric_policy.hpp"

namespace abtest::report {

struct effect_row {
  std::string metric, term;
  double estimate = 0;  // ln ratio attributed to the term
  std::optional<double> ci_low, ci_high, p_adjusted;
  // A bisection's term (design §9): "culprit" when it pushes the way of the bisection's verdict,
  // "offset" when it pulls the other way, "rejected" when its confirmations did not support it; ""
  // for other experiments' effects.
  std::string role;
};

struct distribution {  // the measured, successful samples of one variant (all its layouts) for the headline metric
  std::string variant;
  std::vector<double> values;
};

struct phase_row {  // median seconds per phase of one variant (all its layouts)
  std::string variant;
  std::map<std::string, double> phases;
};

struct changepoint_row {
  std::int64_t id = 0;
  std::string variant, metric, experiment, at, state;
  double magnitude = 0;
  std::optional<double> p_value;
};

struct trend {  // one nightly series
  std::string variant, metric;
  std::vector<std::pair<std::string, double>> points;  // (UTC time, median)
};

struct report_data {
  std::string title;
  std::string experiment;  // the experiment shown in the tables ("" when there is none)
  std::string kind, started_at, status;
  std::string baseline;  // the variant key of the experiment's baseline arm (arm 0)
  std::string headline_metric;  // the metric of the distributions plot
  // How the experiment measured, from its stored plan (design §6): each variant linked `layouts`
  // times (`--layouts K`; 0 = once), and both arms at once on a core each (`--duet`).
  int layouts = 0;
  bool duet = false;
  // As stored, printed in JSON by to_json (verdict_json.hpp); ordered for reading: material
  // regressions first (of timings: a count reads HIGHER), then by the size of |ln ratio|, largest first.
  std::vector<db::verdict_record> verdicts;
  // Ordered as the verdicts: terms whose whole CI lies on the worse side first, then by |effect|.
  std::vector<effect_row> effects;
  std::vector<distribution> distributions;
  std::vector<phase_row> phases;
  // Open (state new) changes for the worse first, then by |magnitude|.
  std::vector<changepoint_row> changepoints;
  std::vector<trend> trends;
  // The open alerts (new, acknowledged, expected) of the store, newest first (design §9.1).
  std::vector<db::alert_record> alerts;
  // An experiment with counts (`run --counts`): a block per SLOWER / FASTER timing of an arm with
  // counts (mechanisms.hpp), in arm then benchmark order.
  std::optional<std::vector<mechanism_entry>> mechanisms;
  // The experiment's `better` / `margin` declarations, from its stored plan (design §4).
  std::vector<stats::metric_rule> metric_rules;

  // Which way `metric` is better: as its stored verdict was judged, else by the experiment's rules,
  // else inferred from its name (stats::resolve_policy).
  stats::better direction(const std::string& metric) const;
};

// A material SLOWER verdict of a timing — what the reports count as a regression.
bool is_regression(const db::verdict_record& v);

// One experiment: its verdicts, effects (a bisection's as culprits and offsets, by the way its stored
// overall verdict points), per-arm distributions of the headline metric
// (proof.total_s when present, else the first *.total_s, else the first metric) and phase medians
// (the metrics `proof.<phase>_s` other than total_s), plus the change points of its variants.
report_data load_experiment(db::results_store& store, const std::string& experiment_id);

// The nightly view: the newest nightly experiment as above (with the other shards of its night when
// it was run in shards, `matrix --group`), the nightly series of every (variant, metric) with one
// point per night, and every change point. Throws std::runtime_error when there is no nightly experiment.
report_data load_nightly(db::results_store& store);

}  // namespace abtest::report
