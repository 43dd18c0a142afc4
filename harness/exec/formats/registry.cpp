// The registry of output formats: one row per format, each defined in its own file here (design §4).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/exec/format.hpp"
#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

// Each format file defines one of these.
const output_format_row& gbench_format();
const output_format_row& json_format();
const output_format_row& lines_format();
const output_format_row& process_format();
const output_format_row& criterion_format();
const output_format_row& libtest_format();
const output_format_row& divan_format();
const output_format_row& hyperfine_format();
const output_format_row& pytest_benchmark_format();
const output_format_row& catch2_format();

const std::vector<const output_format_row*>& output_formats() {
  static const std::vector<const output_format_row*> rows{
      &gbench_format(),    &json_format(),    &lines_format(), &process_format(),
      &criterion_format(), &libtest_format(), &divan_format(),    &hyperfine_format(),
      &pytest_benchmark_format(), &catch2_format(),
  };
  return rows;
}

const output_format_row* find_output_format(std::string_view name) {
  for (const auto* row : output_formats())
    if (row->name == name) return row;
  return nullptr;
}

std::string output_format_names() {
  std::vector<std::string_view> names;
  for (const auto* row : output_formats()) names.push_back(row->name);
  return fmt::format("{}", fmt::join(names, ", "));
}

parsed_output parse_output(std::string_view format, std::string_view bench, const nlohmann::json& options,
                           const format_input& in) {
  const output_format_row* row = find_output_format(format);
  if (row == nullptr)
    return detail::bad_output(fmt::format("unknown output format '{}' — use one of: {}", format, output_format_names()));
  return row->parse(bench, options, in);
}

parsed_output parse_text(std::string_view format, std::string_view bench, std::string_view text,
                         const nlohmann::json& options) {
  return parse_output(format, bench, options, format_input{text, {}, {}});
}

nlohmann::json no_options(const nlohmann::json&) { return nlohmann::json::object(); }

}  // namespace abtest::exec
