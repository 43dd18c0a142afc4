// One exporter per report format behind one interface (markdown, json, html).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "harness/report/report_data.hpp"

namespace abtest::report {

enum class format { markdown, json, html };

// "md" | "markdown" | "json" | "html"; throws std::invalid_argument otherwise.
format parse_format(std::string_view text);

class exporter {
 public:
  virtual ~exporter() = default;
  // The whole document; deterministic for a given report (golden tests compare bytes).
  virtual std::string render(const report_data& r) const = 0;
};

std::unique_ptr<exporter> make_exporter(format f);

// Shared number formatting: 4 significant digits; "—" for a missing value.
std::string format_number(const std::optional<double>& v);
// A ratio as a signed percentage change: 1.062 → "+6.20%".
std::string format_change(double ratio);
// A verdict as the tables show it: "SLOWER", "FASTER (immaterial)", "HIGHER (worse)" for a size or a
// count (stats::verdict_label).
std::string verdict_label(const db::verdict_record& v);
// The ratio's CI as changes, "[+5.10%, +7.40%]"; "—" without one.
std::string format_ci(const db::verdict_record& v);

}  // namespace abtest::report
