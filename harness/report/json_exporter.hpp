// JSON report: the report model as one object, for dashboards and scripts.
#pragma once

#include <nlohmann/json.hpp>

#include "harness/report/exporter.hpp"

namespace abtest::report {

class json_exporter final : public exporter {
 public:
  std::string render(const report_data& r) const override;
  // The object render() prints (keys: experiment, baseline and verdicts as every --json command prints
  // them (verdict_json.hpp), title, kind, status, started_at, headline_metric, effects, distributions,
  // phases, changepoints, trends; missing numbers are null).
  static nlohmann::json to_json(const report_data& r);
};

}  // namespace abtest::report
