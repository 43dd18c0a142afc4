// `abtest compare A B`: one variant as measured in two experiments, unpaired — Welch on log values,
// since the rounds of two experiments are not blocks of each other — and judged as a paired run is.
//
//   const unpaired_comparison c = compare_unpaired(store, before, after, "A1=4", 0.01);
//   for (const verdict_row& r : c.analysis.rows) ...   // after vs before, one row per metric
#pragma once

#include <optional>
#include <string>

#include "db/results_store.hpp"
#include "harness/core/analysis.hpp"

namespace abtest {

struct unpaired_comparison {
  std::string variant;        // the arm compared, as keyed in both experiments
  analysis_result analysis;   // one row per metric both measured: `after` vs `before`
};

// `variant` "" means `before`'s first arm; `margin` nullopt means `before`'s. Each metric both
// experiments measured (auxiliary ones left out) is a row of Welch's log ratio of their successful,
// measured samples, with both medians; the rows are judged together (Holm, directions, margin) as
// analyze() judges a paired experiment's. A usage error names the experiment without the arm.
unpaired_comparison compare_unpaired(db::results_store& store, const db::experiment_record& before,
                                     const db::experiment_record& after, const std::string& variant, std::optional<double> margin);

}  // namespace abtest
