// Parsers of benchmark output for the `format`s of design §4: gbench, json, lines (and process,
// whose output is not read).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "harness/sample/sample.hpp"

namespace abtest::exec {

// `process`: the program's output is not read (a command-line tool that prints a hash, a file); its
// metrics are those every sample carries, the process's own: wall_s, user_s, sys_s, maxrss_mib, ….
enum class output_format { gbench, json, lines, process };

// "gbench", "json", "lines", "process".
std::string_view to_string(output_format format);
std::optional<output_format> parse_output_format(std::string_view text);

// What a benchmark's output says. `status` is ok, no_metrics or bad_output; `error` explains the
// last two (`<what> — <what to do>`). Metric names already carry the `<bench>.` prefix.
struct parsed_output {
  sample_status status = sample_status::bad_output;
  std::string error;
  std::map<std::string, double> metrics;
  std::map<std::string, std::string> checks;
  std::string backend;
  nlohmann::json context = nlohmann::json::object();
};

// None of the parsers throws on bad input: garbage → bad_output, well-formed output without a
// metric → no_metrics.

// Google Benchmark JSON (--benchmark_format=json). For each benchmark run name, real_time in its
// time_unit becomes `<bench>.<name>_s` in seconds, `name` with every character outside
// [A-Za-z0-9_] replaced by '_'; numeric user counters become `<bench>.<name>_<counter>`. With
// repetitions the value is the median of the repetitions; aggregate rows (mean, median, stddev,
// cv, BigO, RMS) are ignored — unless the report holds nothing else
// (--benchmark_report_aggregates_only), and then the `median` rows are used. Context keys abtest_digest / abtest_verified / abtest_backend fill
// checks["digest"] / checks["verified"] / backend; the whole context is kept. A row with
// error_occurred makes the output bad_output.
parsed_output parse_gbench(std::string_view bench, std::string_view text);

// One JSON object: {"metrics": {"total_s": 1.9, ...}, "checks": {"verified": true, "digest": "…"},
// "backend": "cpu", "context": {...}}. Metrics become `<bench>.<name>`; a null metric (e.g. a
// sanitized NaN) is left out; a non-numeric one is bad_output. Check values are kept as text
// (true → "true"). Other top-level keys are allowed and ignored.
parsed_output parse_json(std::string_view bench, std::string_view text);

// Every line of `text` on which the ECMAScript regex `pattern` matches (search, not full match)
// gives a metric: group 1 its name, group 2 its value, optional group 3 its unit (s, ms, us, µs,
// ns). A value with a unit is stored in seconds and its name gets the `_s` suffix unless it has
// it already ("ntt_h 690 ms" → `<bench>.ntt_h_s` = 0.69); a value without one is stored as is.
// A name seen on several lines gets the median of its values (one value per process, design §6).
parsed_output parse_lines(std::string_view bench, std::string_view pattern, std::string_view text);

// Dispatches on `format`; for `lines`, stdout and stderr are both searched.
parsed_output parse_output(output_format format, std::string_view bench, std::string_view pattern,
                           std::string_view stdout_text, std::string_view stderr_text);

// Rewrites the bare NaN / Infinity tokens that some JSON writers emit (NaN, -nan, inf, -Infinity,
// any case, outside strings) as null, so that a strict JSON parser accepts the text.
std::string sanitize_json_numbers(std::string_view text);

// `name` with every character outside [A-Za-z0-9_] replaced by '_' (design §4 metric names).
std::string sanitize_metric_name(std::string_view name);

}  // namespace abtest::exec
