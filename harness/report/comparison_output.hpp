// What run, compare, import and matrix show of a comparison: one terminal table per benchmark
// (phases under their total) and the --json contract of design §9, through render().
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "db/records.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/plan.hpp"
#include "harness/report/exporter.hpp"

namespace abtest::report {

// An analysed experiment as a command shows it (run, compare, import; a matrix's verdicts).
struct comparison_result {
  std::string experiment_id;
  const run_plan& plan;
  const analysis_result& analysis;
  const reference_result* reference = nullptr;
  int rounds_done = 0;
  bool stopped_early = false;
  bool interrupted = false;
  // The experiment's counts (`run --counts`): their mechanism blocks, and the "counts" key of --json.
  const std::vector<db::counts_record>* counts = nullptr;
  // The command's own: terminal lines before the tables ("imported …", run's notes) and --json keys
  // beside the contract's ("notes", "imported").
  std::vector<std::string> lead = {};
  nlohmann::json extra = nlohmann::json::object();
};

// terminal: terminal_report with the lead lines first; json: json_report with the extra keys, then a
// newline. No markdown or html of its own (`abtest report` writes the stored experiment's):
// std::invalid_argument.
std::string render(const comparison_result& in, format f);

std::string terminal_report(const comparison_result& in);
// The contract's {"experiment", "baseline", "verdicts"} (to_json) with the run's own keys:
// rounds, stopped_early, interrupted, seed, arms, reference; with counts, "mechanisms" and
// "counts": [{"variant", "benchmark", "ok", "error", "params", "region", "wall_s", "totals"}].
nlohmann::json json_report(const comparison_result& in);

// A run with nothing left to measure: every candidate is the baseline's program (design §5).
struct nothing_measured {
  std::string baseline;            // the baseline arm's variant key
  std::vector<std::string> notes;  // why: which candidates are the baseline's binary
};
// terminal: the notes; json: the contract's {"experiment": null, "baseline", "verdicts": []} with
// "notes".
std::string render(const nothing_measured& n, format f);

// One variant followed across two experiments (`compare A B`): Welch on log values, unpaired.
struct unpaired_result {
  std::string variant, before, after;  // the variant key and the two experiments' ids
  const analysis_result& analysis;
};
// terminal: a heading and a verdict row per metric; json: {"experiment": after, "baseline": before,
// "verdicts", "variant", "paired": false}.
std::string render(const unpaired_result& u, format f);

// The terminal's verdict row, the one every table of verdicts prints: name, the two medians, the
// ratio, its 95% CI and the verdict label (with its policy note when `policy_note`).
std::string verdict_row_text(const std::string& name, const verdict_row& r, bool policy_note);

// An analysed row as the results store keeps it — and as every --json output prints it: a ratio
// only where there were rounds, a CI only where there is one.
db::verdict_record to_record(const verdict_row& r, const std::string& experiment_id);

// "SLOWER", "FASTER (immaterial)", "HIGHER (worse)" for a size or count (stats::verdict_label).
std::string verdict_label(const verdict_row& r);

// "1.23 s", "456 ms", "12.0 MiB", "1.2e+09".
std::string format_value(const std::string& metric, double value);

}  // namespace abtest::report
