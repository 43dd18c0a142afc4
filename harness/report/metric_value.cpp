// A metric's value with its unit, shared by the terminal report and the exporters.
#include "harness/report/metric_value.hpp"

#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace abtest::report {

std::optional<std::string> rate_unit(std::string_view metric) {
  // Google Benchmark's own counters spell the rate out.
  if (metric.ends_with("_items_per_second")) return "items/s";
  if (metric.ends_with("_bytes_per_second")) return "B/s";
  if (!metric.ends_with("_per_s")) return std::nullopt;
  // The scales exec's rate_suffix writes (lower case) and how they are printed.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 15> scales{{
      {"b", "B"},     {"kb", "KB"},   {"kib", "KiB"}, {"mb", "MB"},       {"mib", "MiB"},
      {"gb", "GB"},   {"gib", "GiB"}, {"tb", "TB"},   {"tib", "TiB"},     {"ops", "ops"},
      {"op", "op"},   {"items", "items"}, {"elem", "elem"}, {"iter", "iter"}, {"bytes", "B"}}};
  const std::string_view head = metric.substr(0, metric.size() - std::string_view("_per_s").size());
  for (const auto& [word, shown] : scales)
    if (head.ends_with(word) && head.size() > word.size() && head[head.size() - word.size() - 1] == '_')
      return fmt::format("{}/s", shown);
  return "/s";
}

std::string format_metric_value(std::string_view metric, double value) {
  if (const auto unit = rate_unit(metric)) return fmt::format("{:.4g}{}{}", value, *unit == "/s" ? "" : " ", *unit);
  if (metric.ends_with("_s")) {
    const double a = std::fabs(value);
    if (a >= 1) return fmt::format("{:.3f} s", value);
    if (a >= 1e-3) return fmt::format("{:.3f} ms", value * 1e3);
    if (a >= 1e-6) return fmt::format("{:.3f} µs", value * 1e6);
    return fmt::format("{:.1f} ns", value * 1e9);
  }
  if (metric.ends_with("_mib")) return fmt::format("{:.1f} MiB", value);
  if (value == std::floor(value) && std::fabs(value) < 1e12) return fmt::format("{:.0f}", value);
  return fmt::format("{:.4g}", value);
}

std::string format_metric_cell(std::string_view metric, const std::optional<double>& value) {
  if (!value) return "—";
  if (rate_unit(metric)) return format_metric_value(metric, *value);
  return fmt::format("{:.4g}", *value);
}

}  // namespace abtest::report
