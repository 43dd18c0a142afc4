// What a benchmark's output says once parsed (design §4), and the text clean-ups every format
// shares. The formats themselves are rows of harness/exec/format.hpp.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "harness/sample/sample.hpp"

namespace abtest::exec {

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

// Google Benchmark JSON on stdout (format `gbench`, formats/gbench.cpp).
parsed_output parse_gbench(std::string_view bench, std::string_view text);
// The abtest metrics protocol on stdout (format `json` without keys, formats/json.cpp).
parsed_output parse_json(std::string_view bench, std::string_view text);
// One `lines` pattern over `text` (format `lines`, formats/lines.cpp).
parsed_output parse_lines(std::string_view bench, std::string_view pattern, std::string_view text);

// Rewrites the bare NaN / Infinity tokens that some JSON writers emit (NaN, -nan, inf, -Infinity,
// any case, outside strings) as null, so that a strict JSON parser accepts the text.
std::string sanitize_json_numbers(std::string_view text);

// `name` with every character outside [A-Za-z0-9_] replaced by '_' (design §4 metric names).
std::string sanitize_metric_name(std::string_view name);

}  // namespace abtest::exec
