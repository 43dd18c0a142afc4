// Factorial effects of a recorded matrix design: the design as stored, the ln values of its runs
// from stored samples, the effects table, and the effects of one design over its shards' experiments.
//
//   const recorded_design d = design_from_json(experiment.config.at("design"));
//   design_effects e = experiment_effects(d, r.plan, r.samples, r.analysis, r.experiment_id, metrics, 0.01, notes);
//   design_analysis a = analyze_design(store, {}, "night-7", {}, 0.01);   // `matrix --analyze`; stored
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "db/records.hpp"
#include "db/results_store.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/core/samples.hpp"
#include "harness/search/design.hpp"
#include "harness/search/factorial_search.hpp"
#include "harness/search/sharded_effects.hpp"
#include "harness/search/toggle_spec.hpp"

namespace abtest {

// The design of a matrix experiment as stored in its config["design"]: kind, k, generators, runs,
// configs (variant key per run), factors (toggle spelled as in variant keys, per factor).
struct recorded_design {
  search::design d;
  std::vector<std::string> keys, factors;
  nlohmann::json json;
};
nlohmann::json design_to_json(const search::design& d, const std::vector<std::string>& keys,
                              const std::vector<std::string>& factors);
recorded_design design_from_json(const nlohmann::json& j);
// The design `d` of `factors` as a matrix experiment records it: each run's variant key in `m`'s
// spelling, each factor's name.
recorded_design make_recorded_design(const manifest& m, const search::design& d, const std::vector<search::factor>& factors);

// ln `metric` of the experiment's arms that are runs of the design (matched by variant key; other
// arms such as the canary are left out), per round — with --layouts per layout, its mean over the
// rounds; NaN for a failed sample or an INVALID arm.
search::shard_values design_values(const recorded_design& design, const run_plan& plan, const std::vector<sample>& samples,
                                   const analysis_result& health, const std::string& metric);

struct metric_effects {
  nlohmann::json json;
  std::string table;
  std::vector<db::effect_record> records;  // experiment_id left empty: the caller stores them
};

// The effects and 0/1 attribution of one metric as a table and JSON, with the measured ln ratio of
// each run to base beside what the model attributes to it (`measured`: NaN when not measured).
// `replicates` names what a configuration's replicates were: "rounds", or "layouts" with --layouts.
metric_effects effects_report(const std::string& metric, const recorded_design& design, const search::factorial_outcome& f,
                              const std::vector<double>& measured, const std::string& replicates = "rounds");

// The effects of several metrics: one JSON object and one table each, the records of them all.
struct design_effects {
  nlohmann::json json = nlohmann::json::array();
  std::string tables;
  std::vector<db::effect_record> records;
};

// `abtest matrix` on the whole design (one shard): the effects of each metric over this experiment's
// runs of it, records carrying `experiment_id` (not stored). A configuration that failed to build is
// a missing run; a metric whose effects cannot be fitted is a note, not an error.
design_effects experiment_effects(const recorded_design& design, const run_plan& plan, const std::vector<sample>& samples,
                                  const analysis_result& analysis, const std::string& experiment_id,
                                  const std::vector<std::string>& metrics, double margin, std::vector<std::string>& notes);

// `abtest matrix --analyze`: the effects of one design over the experiments that measured it.
struct design_analysis {
  std::vector<std::string> experiments;  // the members analysed, oldest first
  std::string group;                     // their config["group"] ("" when none)
  recorded_design design;
  int shards = 1;           // the sharding the members record
  std::set<int> present;    // the shard indices found
  design_effects effects;   // per metric; records with experiment_id empty (stored once per member)
  std::vector<std::string> notes;  // incomplete members, missing shards, metrics without effects
};

// The effects of one design over the experiments that measured it (the shards of one group, tied by
// config["group"]), each shard paired with its own base; stored as the effects of every member
// experiment (replacing theirs). `experiments` empty: the members of `group`, or with neither the
// newest matrix or nightly experiment and the rest of its group. `metrics` empty: the default
// monitored ones. Usage errors: an unknown or non-matrix experiment, members of different designs
// or shardings, two members of one shard, nothing to analyse.
design_analysis analyze_design(db::results_store& store, const std::vector<std::string>& experiments, const std::string& group,
                               const std::vector<std::string>& metrics, double margin);

}  // namespace abtest
