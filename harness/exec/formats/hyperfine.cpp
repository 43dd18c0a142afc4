// Format `hyperfine`: the JSON hyperfine writes with --export-json {out} (design §4).
#include "harness/exec/timed_rows.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace hyperfine_format_detail {
using nlohmann::json;

// {"results": [{"command": "<command or -n name>", "mean": s, "median": s, "stddev": s, …}, …]}:
// `<name>_s` the mean (hyperfine's own headline), `<name>_median_s` the median, in seconds.
parsed_output parse(std::string_view bench, const json&, const format_input& in) {
  return detail::parse_timed_rows(
      bench, in,
      {"hyperfine's JSON export", "run hyperfine with --export-json {out}", "results",
       "hyperfine JSON without a \"results\" array — run hyperfine with --export-json {out}", "command", "",
       "a hyperfine result without its \"command\" — is this hyperfine's --export-json?",
       "hyperfine result '{}' has a non-numeric {} — is this hyperfine's JSON?",
       "hyperfine's export holds no result — check the commands given to hyperfine"});
}
}  // namespace hyperfine_format_detail

const output_format_row& hyperfine_format() {
  static const output_format_row row{"hyperfine", "the file hyperfine writes with --export-json {out}",
                                     output_stream::stdout_text, "", {}, no_options, hyperfine_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
