// Format `hyperfine`: the JSON hyperfine writes with --export-json {out} (design §4).
#include "harness/exec/json_dom.hpp"
#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace hyperfine_format_detail {
using nlohmann::json;

// {"results": [{"command": "<command or -n name>", "mean": s, "median": s, "stddev": s, …}, …]}:
// `<name>_s` the mean (hyperfine's own headline), `<name>_median_s` the median, in seconds.
parsed_output parse(std::string_view bench, const json&, const format_input& in) {
  simdjson::dom::parser parser;
  detail::dom_element doc;
  if (std::string error = detail::read_json_document(in, "hyperfine's JSON export", "run hyperfine with --export-json {out}", parser, doc);
      !error.empty())
    return detail::bad_output(std::move(error));
  const auto results = detail::member(doc, "results");
  if (!results || !results->is_array())
    return detail::bad_output("hyperfine JSON without a \"results\" array — run hyperfine with --export-json {out}");
  detail::metric_set metrics(bench);
  for (const detail::dom_element r : detail::array_of(*results)) {
    const auto command = detail::member(r, "command");
    const auto raw = command ? detail::string_of(*command) : std::nullopt;
    if (!raw) return detail::bad_output("a hyperfine result without its \"command\" — is this hyperfine's --export-json?");
    if (std::string e = detail::add_times(*raw, r, "hyperfine result '{}' has a non-numeric {} — is this hyperfine's JSON?", metrics);
        !e.empty())
      return detail::bad_output(std::move(e));
  }
  return metrics.finish(parsed_output{}, "hyperfine's export holds no result — check the commands given to hyperfine");
}
}  // namespace hyperfine_format_detail

const output_format_row& hyperfine_format() {
  static const output_format_row row{"hyperfine", "the file hyperfine writes with --export-json {out}",
                                     output_stream::stdout_text, "", {}, no_options, hyperfine_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
