// How a comparison is shown: one terminal table per benchmark (phases under their total), or the
// --json contract of design §9.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "db/records.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/plan.hpp"

namespace abtest {

struct report_input {
  std::string experiment_id;
  const run_plan& plan;
  const analysis_result& analysis;
  const reference_result* reference = nullptr;
  int rounds_done = 0;
  bool stopped_early = false;
  bool interrupted = false;
  // The experiment's counts (`run --counts`): their mechanism blocks, and the "counts" key of --json.
  const std::vector<db::counts_record>* counts = nullptr;
};

std::string terminal_report(const report_input& in);
// The contract's {"experiment", "baseline", "verdicts"} (report::to_json) with the run's own keys:
// rounds, stopped_early, interrupted, seed, arms, reference; with counts, "mechanisms" and
// "counts": [{"variant", "benchmark", "ok", "error", "params", "region", "wall_s", "totals"}].
nlohmann::json json_report(const report_input& in);

// An analysed row as the results store keeps it — and as every --json output prints it: a ratio
// only where there were rounds, a CI only where there is one.
db::verdict_record to_record(const verdict_row& r, const std::string& experiment_id);

// "SLOWER", "FASTER (immaterial)", "HIGHER (worse)" for a size or count (stats::verdict_label).
std::string verdict_label(const verdict_row& r);

// "1.23 s", "456 ms", "12.0 MiB", "1.2e+09".
std::string format_value(const std::string& metric, double value);

}  // namespace abtest
