// Reads the rows-of-times JSON that hyperfine and pytest-benchmark write.
#include "harness/exec/timed_rows.hpp"

#include "harness/exec/json_dom.hpp"
#include "harness/exec/parse_support.hpp"

namespace abtest::exec::detail {

namespace {
// The mean and median of `stats` into `metrics`; an error message, or empty.
std::string add_times(std::string_view raw, dom_element stats, std::string_view non_numeric, metric_set& metrics) {
  const std::string name = sanitize_metric_name(raw);
  for (const auto& [key, suffix] : {std::pair{"mean", "_s"}, std::pair{"median", "_median_s"}}) {
    const auto field = member(stats, key);
    if (!field || field->is_null()) continue;
    const auto value = number_of(*field);
    if (!value) return fmt::format(fmt::runtime(non_numeric), raw, key);
    if (!metrics.add(raw, name + suffix, *value)) return metrics.error();
  }
  return {};
}
}  // namespace

parsed_output parse_timed_rows(std::string_view bench, const format_input& in, const timed_rows& shape) {
  simdjson::dom::parser parser;
  dom_element doc;
  if (std::string error = read_json_document(in, shape.what, shape.what_to_do, parser, doc); !error.empty())
    return bad_output(std::move(error));
  const auto rows = member(doc, shape.rows_key);
  if (!rows || !rows->is_array()) return bad_output(std::string(shape.no_rows));
  metric_set metrics(bench);
  for (const dom_element row : array_of(*rows)) {
    const auto name = member(row, shape.name_key);
    const auto raw = name ? string_of(*name) : std::nullopt;
    const auto stats = shape.stats_key.empty() ? std::optional<dom_element>(row) : member(row, shape.stats_key);
    if (!raw || !stats || !stats->is_object()) return bad_output(std::string(shape.bad_row));
    if (std::string e = add_times(*raw, *stats, shape.non_numeric, metrics); !e.empty()) return bad_output(std::move(e));
  }
  return metrics.finish(parsed_output{}, shape.no_metrics);
}

}  // namespace abtest::exec::detail
