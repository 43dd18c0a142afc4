// Alerts in the reports and in `abtest alerts`: one JSON shape, one table, the terminal's lines (design §9.1, §9.3).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "db/records.hpp"
#include "harness/report/exporter.hpp"
#include "harness/report/mechanisms.hpp"

namespace abtest::report {

// {"id", "source", "subject", "benchmark", "change", "state", "opened_at", "updated_at",
//  "metrics": [{"metric", "ratio", "ci_low", "ci_high", "before_median", "after_median", "sightings"}],
//  "events": [{"at", "from", "to", "note"}]}
nlohmann::json alert_json(const db::alert_record& alert);

// The open alerts as the markdown and HTML reports show them: one row per alert, its metrics with
// their ratios in one cell.
text_table alerts_table(const std::vector<db::alert_record>& alerts);

// `abtest alerts`: the alerts listed, and what the list was of ("open", "new", "" for every one) for
// the line an empty list prints.
struct alert_list {
  std::vector<db::alert_record> alerts;
  std::string which;  // "open" (the default list) adds how to see the closed ones
};
// terminal: per alert its line, a line per metric, its last event; json: [alert_json(a), ...].
std::string render(const alert_list& l, format f);

// `abtest alerts ack|expect|invalid ID`: the alert after its triage.
struct alert_triaged {
  db::alert_record alert;
};
// terminal: "alert #3 is now acknowledged"; json: alert_json.
std::string render(const alert_triaged& t, format f);

}  // namespace abtest::report
