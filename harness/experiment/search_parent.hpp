// The parent experiment of a search (`abtest bisect`, design §7): its plan, whose arms are the two
// ends and whose steps are the comparisons, and the overall comparison stored as its verdict row.
#pragma once

#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/search/toggle_bisect.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest {

// Creates the parent experiment of a search over `ends` with the settings `s` of its comparisons;
// `extra` goes into its config beside metric and role. Returns its id.
std::string create_parent(db::results_store& store, const manifest& m, const std::vector<arm_plan>& ends,
                          const oracle_settings& s, const nlohmann::json& extra);

// The overall comparison of a toggle bisection as a stored verdict row of its parent experiment.
// One comparison: its p-value is its own Holm-adjusted one. Medians are the steps' business (null).
db::verdict_record overall_record(const std::string& parent, const search::bisect_report& r, const std::string& metric,
                                  double margin, stats::better better);

}  // namespace abtest
