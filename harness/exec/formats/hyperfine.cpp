// Format `hyperfine`: the JSON hyperfine writes with --export-json {out} (design §4).
#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace hyperfine_format_detail {
using nlohmann::json;

// {"results": [{"command": "<command or -n name>", "mean": s, "median": s, "stddev": s, …}, …]}:
// `<name>_s` the mean (hyperfine's own headline), `<name>_median_s` the median, in seconds.
parsed_output parse(std::string_view bench, const json&, const format_input& in) {
  json doc;
  if (std::string error = detail::read_json_document(in, "hyperfine's JSON export", "run hyperfine with --export-json {out}", doc);
      !error.empty())
    return detail::bad_output(std::move(error));
  if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_array())
    return detail::bad_output("hyperfine JSON without a \"results\" array — run hyperfine with --export-json {out}");
  detail::metric_set metrics(bench);
  for (const json& r : doc["results"]) {
    if (!r.is_object() || !r.contains("command") || !r["command"].is_string())
      return detail::bad_output("a hyperfine result without its \"command\" — is this hyperfine's --export-json?");
    const std::string raw = r["command"].get<std::string>();
    const std::string name = sanitize_metric_name(raw);
    for (const auto& [key, suffix] : {std::pair{"mean", "_s"}, std::pair{"median", "_median_s"}}) {
      if (!r.contains(key) || r[key].is_null()) continue;
      if (!r[key].is_number())
        return detail::bad_output(fmt::format("hyperfine result '{}' has a non-numeric {} — is this hyperfine's JSON?", raw, key));
      if (!metrics.add(raw, name + suffix, r[key].get<double>())) return detail::bad_output(metrics.error());
    }
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
