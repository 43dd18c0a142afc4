// The JSON shape hyperfine's and pytest-benchmark's reports share: rows, each a name and its times
// (mean and median, in seconds) — one reader for both formats (design §4).
#pragma once

#include <string_view>

#include "harness/exec/format.hpp"

namespace abtest::exec::detail {

// Where a report keeps its rows and what the messages say. `stats_key` empty: the times are in the
// row itself (hyperfine), else in the row's object of that name (pytest-benchmark's `stats`).
struct timed_rows {
  std::string_view what, what_to_do;  // "<input> is not <what> (…) — <what_to_do>"
  std::string_view rows_key, no_rows;
  std::string_view name_key, stats_key, bad_row;
  std::string_view non_numeric;  // a format string taking the row's name and the key
  std::string_view no_metrics;
};

// `<name>_s` the mean, `<name>_median_s` the median of each row; an absent or null one is left out,
// a non-number is bad_output.
parsed_output parse_timed_rows(std::string_view bench, const format_input& in, const timed_rows& shape);

}  // namespace abtest::exec::detail
