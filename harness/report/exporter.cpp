// Format selection and the number formatting every exporter shares.
#include "harness/report/exporter.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "harness/report/html_exporter.hpp"
#include "harness/report/json_exporter.hpp"
#include "harness/report/markdown_exporter.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::report {

format parse_format(std::string_view text) {
  if (text == "md" || text == "markdown") return format::markdown;
  if (text == "json") return format::json;
  if (text == "html") return format::html;
  throw std::invalid_argument(fmt::format("unknown report format \"{}\" — use md, json or html", text));
}

std::unique_ptr<exporter> make_exporter(format f) {
  switch (f) {
    case format::markdown: return std::make_unique<markdown_exporter>();
    case format::json: return std::make_unique<json_exporter>();
    case format::html: return std::make_unique<html_exporter>();
  }
  throw std::invalid_argument("unknown report format");
}

std::string format_number(const std::optional<double>& v) { return v ? fmt::format("{:.4g}", *v) : "—"; }

std::string format_change(double ratio) { return fmt::format("{:+.2f}%", 100 * (ratio - 1)); }

std::string verdict_label(const db::verdict_record& v) {
  const auto kind = stats::parse_verdict(db::to_string(v.verdict));
  const std::string label = kind ? stats::verdict_label(v.metric, *kind) : std::string(db::to_string(v.verdict));
  return label + (v.immaterial ? " (immaterial)" : "");
}

std::string format_ci(const db::verdict_record& v) {
  return v.ci_low && v.ci_high ? fmt::format("[{}, {}]", format_change(*v.ci_low), format_change(*v.ci_high)) : "—";
}

}  // namespace abtest::report
