// Format selection and the number formatting every exporter shares.
#include "harness/report/exporter.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "harness/report/html_exporter.hpp"
#include "harness/report/json_exporter.hpp"
#include "harness/report/markdown_exporter.hpp"

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

}  // namespace abtest::report
