// Helpers shared by the output parsers (not part of the public API).
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "harness/exec/parsers.hpp"

namespace abtest::exec::detail {

inline parsed_output bad_output(std::string error) {
  parsed_output p;
  p.status = sample_status::bad_output;
  p.error = std::move(error);
  return p;
}

// The first `n` characters of `text` on one line, for error messages.
inline std::string excerpt(std::string_view text, std::size_t n = 60) {
  std::string out;
  for (char c : text.substr(0, n)) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (text.size() > n) out += "…";
  return out;
}

// Median of a non-empty list: the middle value, or the mean of the two middle values.
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// Collects the values seen for each metric and reduces them to one value per process.
inline std::map<std::string, double> medians(const std::map<std::string, std::vector<double>>& seen) {
  std::map<std::string, double> out;
  for (const auto& [name, values] : seen) {
    if (!values.empty()) out.emplace(name, median(values));
  }
  return out;
}

// Seconds per unit of a Google Benchmark time_unit or a `lines` unit; 0 for an unknown unit.
inline double seconds_per(std::string_view unit) {
  if (unit == "s") return 1.0;
  if (unit == "ms") return 1e-3;
  if (unit == "us" || unit == "µs") return 1e-6;
  if (unit == "ns") return 1e-9;
  return 0.0;
}

// Sets status to ok or no_metrics once a parser has filled the metrics.
inline parsed_output finish(parsed_output p, std::string_view what_to_check) {
  if (p.metrics.empty()) {
    p.status = sample_status::no_metrics;
    p.error = fmt::format("the output holds no metric — {}", what_to_check);
  } else {
    p.status = sample_status::ok;
  }
  return p;
}

}  // namespace abtest::exec::detail
