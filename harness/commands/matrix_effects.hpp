// What `abtest matrix` (one experiment) and `abtest matrix --analyze` (one design merged from its
// shards' experiments) share: the design as recorded, the ln values of its runs, the effects table.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "db/records.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/plan.hpp"
#include "harness/core/samples.hpp"
#include "harness/search/design.hpp"
#include "harness/search/factorial_search.hpp"
#include "harness/search/sharded_effects.hpp"

namespace abtest::cli {

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

// `abtest matrix --analyze`: the effects of one design over the experiments that measured it (the
// shards of one group, tied by config["group"]), each shard paired with its own base; stored as the
// effects of every member experiment. `experiments` empty: the members of `group`, or with neither
// the newest matrix or nightly experiment and the rest of its group.
int matrix_analyze(const std::vector<std::string>& experiments, const std::string& group, const std::vector<std::string>& metrics,
                   double margin_pct, const global_options& g);

}  // namespace abtest::cli
