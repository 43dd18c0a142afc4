// The verdicts of the --json contract (design §9): one serializer for every command that prints them
// (run, compare, matrix, show) and for the JSON report.
//
// Example:
//   report::experiment_result r{"r-20261202-154501-3f2a", "base", store.list_verdicts(id)};
//   std::cout << report::to_json(r).dump(2);   // {"experiment", "baseline", "verdicts": [...]}
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "db/records.hpp"
#include "harness/report/mechanisms.hpp"

namespace abtest::report {

// One verdict row: variant, baseline, metric, n, baseline_median, candidate_median, ratio, ci_low,
// ci_high, p_value, p_adjusted, verdict (slower|faster|same|inconclusive|invalid) and immaterial;
// `hodges_lehmann` {ratio, ci_low, ci_high} and `note` when there are some; the policy it was judged
// by: better (lower|higher), better_from and margin_from (manifest|inferred|default), margin (relative). A number that was not
// estimated is null — never 0, which would read as a ratio.
nlohmann::json to_json(const db::verdict_record& v);

// An experiment's result: the contract's top level. Commands add their own keys beside these.
struct experiment_result {
  std::string experiment;  // "" → null (nothing was run, e.g. every candidate is the baseline's binary)
  std::string baseline;    // the baseline arm's variant key
  std::vector<db::verdict_record> verdicts;
  // Set for an experiment with counts (`run --counts`), even when no timing moved.
  std::optional<std::vector<mechanism_entry>> mechanisms = std::nullopt;
};

// One mechanism block: {"benchmark": "synth", "explains": [{"metric": "synth.total_s", "verdict":
// "faster", "ratio": 0.93}], then the block's keys (counts::to_json: "base", "candidate", "counts",
// "functions", "alloc_sites", …)}.
nlohmann::json to_json(const mechanism_entry& m);

// {"experiment", "baseline", "verdicts": [to_json(row), ...]}, and "mechanisms": [to_json(m), ...]
// for an experiment with counts. A count's row (`<bench>.counts.<name>`, n = 1) has a ratio but no
// CI and no p-values (null).
nlohmann::json to_json(const experiment_result& r);

}  // namespace abtest::report
