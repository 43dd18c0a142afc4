// A noise floor as `abtest noise-floor` shows it, for the terminal and --json.
#include "harness/report/noise_floor_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/stats/verdict.hpp"

namespace abtest::report {
namespace {

nlohmann::json row_json(const noise_floor_row& f, bool layouts) {
  const verdict_row& row = *f.row;
  nlohmann::json j = {{"metric", row.metric}, {"n", row.n}, {"ratio", row.primary.ratio()}, {"ci_low", row.primary.ratio_low()},
                      {"ci_high", row.primary.ratio_high()}, {"floor", f.floor}, {"verdict", stats::to_string(row.verdict)}};
  if (layouts)
    j.update({{"layout_sd", f.layout_sd}, {"within_sd", row.layouts->within_sd}, {"layout_share", row.layouts->share}});
  return j;
}

nlohmann::json to_json(const noise_floor_result& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& f : r.floors) rows.push_back(row_json(f, r.layouts > 0));
  if (r.layouts > 0)
    return {{"experiment", r.experiment}, {"variant", r.variant}, {"layouts", r.layouts}, {"rounds", r.rounds}, {"floors", rows}};
  return {{"experiment", r.experiment}, {"variant", r.variant}, {"layout", r.layout}, {"rounds", r.rounds}, {"floors", rows}, {"note", r.note}};
}

std::string to_text(const noise_floor_result& r) {
  std::string out = r.note.empty() ? "" : fmt::format("note: {}\n", r.note);
  out += fmt::format("experiment {}\n", r.experiment);
  if (r.layouts > 0) {
    out += fmt::format("noise floor of {} over layouts ({} + {} seeded links of one build, {} rounds)\n", r.variant, r.layouts, r.layouts,
                       r.rounds);
    out += fmt::format("  {:<36} {:>8} {:>19} {:>8} {:>10} {:>8}\n", "metric", "ratio", "95% CI", "floor", "layout sd", "run sd");
  } else {
    out += fmt::format("noise floor of {} (A/A′, {} rounds, layout {})\n", r.variant, r.rounds, fmt::join(r.layout, " "));
    out += fmt::format("  {:<36} {:>8} {:>19} {:>8}\n", "metric", "ratio", "95% CI", "floor");
  }
  for (const auto& f : r.floors) {
    const verdict_row& row = *f.row;
    out += fmt::format("  {:<36} {:>8.4f} {:>8.4f}–{:<10.4f} {:>7.2f}%", row.metric, row.primary.ratio(), row.primary.ratio_low(),
                       row.primary.ratio_high(), 100 * f.floor);
    if (r.layouts > 0) out += fmt::format(" {:>9.2f}% {:>7.2f}%", 100 * f.layout_sd, 100 * row.layouts->within_sd);
    out += "\n";
  }
  return out;
}

}  // namespace

std::string render(const noise_floor_result& r, format f) {
  if (f == format::json) return to_json(r).dump(2) + "\n";
  if (f == format::terminal) return to_text(r);
  throw std::invalid_argument("noise-floor has no markdown or HTML output — `abtest report EXPERIMENT` writes one");
}

}  // namespace abtest::report
