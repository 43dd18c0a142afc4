// How a metric's value is written for a reader: a time in s/ms/µs/ns, a rate with the unit its
// name carries (`6400 MB/s`, `1.2e+07 items/s`), a size in MiB (design §4 metric names).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace abtest::report {

// The unit a rate's name carries, for display: `…_mb_per_s` → "MB/s", `…_gib_per_s` → "GiB/s",
// `…_ops_per_s` → "ops/s", Google Benchmark's `…_items_per_second` → "items/s" and
// `…_bytes_per_second` → "B/s", a bare `…_per_s` → "/s". nullopt for a metric that is not a rate.
std::optional<std::string> rate_unit(std::string_view metric);

// The value with its unit, as the terminal shows it:
//   format_metric_value("b.copy_mb_per_s", 6400) == "6400 MB/s"
//   format_metric_value("b.total_s", 0.0123)      == "12.300 ms"
// A metric whose name says no unit is a plain number (an integer without decimals).
std::string format_metric_value(std::string_view metric, double value);

// A table cell of the markdown and HTML reports: a rate with its unit ("6400 MB/s"), any other
// value as the reports have always written it ({:.4g}), "—" for none.
std::string format_metric_cell(std::string_view metric, const std::optional<double>& value);

}  // namespace abtest::report
