// The seam for benchmark output formats: one row per format (name, parser, what it reads, its
// manifest keys), and the registry that lists them (design §4).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/exec/parsers.hpp"

namespace abtest::exec {

// Which of the process's streams a format reads when the command does not name `{out}`.
enum class output_stream { stdout_text, stderr_text, both, none };

// What a parser is handed for one sample. `out` is the fresh `{out}` path of this sample when the
// command (or the format's env) named it — a file or folder the program wrote, removed after
// parsing — else empty.
struct format_input {
  std::string_view stdout_text;
  std::string_view stderr_text;
  std::filesystem::path out;
};

// Thrown by a row's `options` on a bad manifest key; the manifest turns it into
// `<file>: benchmarks[i].<key>: <what> — <fix>` (exit 2).
struct format_key_error {
  std::string key;
  std::string what;
  std::string fix;
};

// One output format. A new format is one file under harness/exec/formats/ defining its row, and
// that row listed in formats/registry.cpp; nothing else changes.
//   const output_format_row& hyperfine_format() {
//     static const output_format_row row{"hyperfine", "hyperfine --export-json {out}", output_stream::none,
//                                        "", {}, no_options, parse};
//     return row;
//   }
struct output_format_row {
  std::string_view name;
  std::string_view reads_text;   // what it reads, for the docs and error messages
  output_stream reads;           // the stream it reads when there is no `{out}` file
  std::string_view total_metric; // the metric `bisect` takes by default (`total_s`, `wall_s`); empty: none
  std::vector<std::string> keys; // manifest keys of the benchmark object that belong to this format
  // Validates this format's keys of the benchmark object `benchmark` (only those in `keys` are
  // looked at) and returns them as the options the parser gets — carried in the plan and in
  // bundles as written. Throws format_key_error. Also called on a bundle's plan.json.
  nlohmann::json (*options)(const nlohmann::json& benchmark);
  // Never throws on bad output: garbage → bad_output, well-formed output without a metric → no_metrics.
  parsed_output (*parse)(std::string_view bench, const nlohmann::json& options, const format_input& in);
  // Environment the program gets; `{out}` in a value is the sample's fresh path (e.g. CRITERION_HOME).
  std::vector<std::pair<std::string, std::string>> env{};
};

// Every format, in the order the docs list them.
const std::vector<const output_format_row*>& output_formats();
// The row named `name`; nullptr for an unknown one.
const output_format_row* find_output_format(std::string_view name);
// "gbench, json, lines, …" for error messages.
std::string output_format_names();

// Parses one sample's output with the format named `format` (which must exist).
parsed_output parse_output(std::string_view format, std::string_view bench, const nlohmann::json& options,
                           const format_input& in);
// The same for a text on stdout alone: what the tests and the fuzz targets feed.
parsed_output parse_text(std::string_view format, std::string_view bench, std::string_view text,
                         const nlohmann::json& options = nlohmann::json::object());

// For rows without keys.
nlohmann::json no_options(const nlohmann::json& benchmark);

}  // namespace abtest::exec
