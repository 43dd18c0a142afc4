// Alerts in the reports and in `abtest alerts --json`: one JSON shape, one table (design §9.1).
#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "db/records.hpp"
#include "harness/report/mechanisms.hpp"

namespace abtest::report {

// {"id", "source", "subject", "benchmark", "change", "state", "opened_at", "updated_at",
//  "metrics": [{"metric", "ratio", "ci_low", "ci_high", "before_median", "after_median", "sightings"}],
//  "events": [{"at", "from", "to", "note"}]}
nlohmann::json alert_json(const db::alert_record& alert);

// The open alerts as the markdown and HTML reports show them: one row per alert, its metrics with
// their ratios in one cell.
text_table alerts_table(const std::vector<db::alert_record>& alerts);

}  // namespace abtest::report
