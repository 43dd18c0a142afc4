// Format `pytest-benchmark`: the JSON pytest-benchmark writes with --benchmark-json {out} (design §4).
#include "harness/exec/json_dom.hpp"
#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace pytest_benchmark_format_detail {
using nlohmann::json;

// {"benchmarks": [{"name": "test_sum[10000]", "fullname": "…::test_sum[10000]", "stats": {"mean": s,
// "median": s, …}}, …]}: `<name>_s` the mean, `<name>_median_s` the median, in seconds.
parsed_output parse(std::string_view bench, const json&, const format_input& in) {
  simdjson::dom::parser parser;
  detail::dom_element doc;
  if (std::string error = detail::read_json_document(in, "pytest-benchmark's JSON", "run pytest with --benchmark-json {out}", parser, doc);
      !error.empty())
    return detail::bad_output(std::move(error));
  const auto benchmarks = detail::member(doc, "benchmarks");
  if (!benchmarks || !benchmarks->is_array())
    return detail::bad_output("pytest-benchmark JSON without a \"benchmarks\" array — run pytest with --benchmark-json {out}");
  detail::metric_set metrics(bench);
  for (const detail::dom_element b : detail::array_of(*benchmarks)) {
    const auto name = detail::member(b, "name");
    const auto raw = name ? detail::string_of(*name) : std::nullopt;
    const auto stats = detail::member(b, "stats");
    if (!raw || !stats || !stats->is_object())
      return detail::bad_output("a pytest-benchmark entry without \"name\" or \"stats\" — is this --benchmark-json output?");
    if (std::string e = detail::add_times(*raw, *stats, "benchmark '{}' has a non-numeric stats.{} — is this pytest-benchmark's JSON?", metrics);
        !e.empty())
      return detail::bad_output(std::move(e));
  }
  return metrics.finish(parsed_output{}, "pytest-benchmark's JSON holds no benchmark — check that pytest collected the "
                                         "benchmark tests (-k, the test path)");
}
}  // namespace pytest_benchmark_format_detail

const output_format_row& pytest_benchmark_format() {
  static const output_format_row row{"pytest-benchmark", "the file pytest writes with --benchmark-json {out}",
                                     output_stream::stdout_text, "", {}, no_options, pytest_benchmark_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
