// One exporter per report format behind one interface (markdown, json, html; the terminal reads the
// markdown). Every other command's result is rendered through render.hpp's overloads in these formats.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/report/report_data.hpp"

namespace abtest::report {

// `terminal`: what a command prints without --json (for `abtest report`, the markdown).
enum class format { markdown, json, html, terminal };

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
// count, "HIGHER (better) · better higher (inferred)" for a rate (stats::verdict_label, policy_note).
std::string verdict_label(const db::verdict_record& v);
// The ratio's CI as changes, "[+5.10%, +7.40%]"; "—" without one.
std::string format_ci(const db::verdict_record& v);

// How the experiment measured, a sentence each (design §6): its layouts (`--layouts K`) and its duet
// (`--duet`). Empty for a plain run.
std::vector<std::string> design_remarks(const report_data& r);

// A verdict's layout split (its details' "layouts") in one line for the terminal: "71% of the
// variance · layout sd 1.20% / 0.90% · run sd 0.50%" (sds on the ln scale, shown as %).
std::string layout_summary(const nlohmann::json& layouts);

// With --layouts, how much of each difference is where the linker put the code: a row per verdict
// with a layout split (variant, metric, layouts, layout sd of each side, run sd, the layouts' share
// of the estimate's variance). No such verdict → no table.
std::optional<text_table> layout_table(const report_data& r);

}  // namespace abtest::report
