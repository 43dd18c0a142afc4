// Format `pytest-benchmark`: the JSON pytest-benchmark writes with --benchmark-json {out} (design §4).
#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace pytest_benchmark_format_detail {
using nlohmann::json;

// {"benchmarks": [{"name": "test_sum[10000]", "fullname": "…::test_sum[10000]", "stats": {"mean": s,
// "median": s, …}}, …]}: `<name>_s` the mean, `<name>_median_s` the median, in seconds.
parsed_output parse(std::string_view bench, const json&, const format_input& in) {
  json doc;
  if (std::string error = detail::read_json_document(in, "pytest-benchmark's JSON", "run pytest with --benchmark-json {out}", doc);
      !error.empty())
    return detail::bad_output(std::move(error));
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array())
    return detail::bad_output("pytest-benchmark JSON without a \"benchmarks\" array — run pytest with --benchmark-json {out}");
  detail::metric_set metrics(bench);
  for (const json& b : doc["benchmarks"]) {
    if (!b.is_object() || !b.contains("name") || !b["name"].is_string() || !b.contains("stats") || !b["stats"].is_object())
      return detail::bad_output("a pytest-benchmark entry without \"name\" or \"stats\" — is this --benchmark-json output?");
    const std::string raw = b["name"].get<std::string>();
    const std::string name = sanitize_metric_name(raw);
    const json& stats = b["stats"];
    for (const auto& [key, suffix] : {std::pair{"mean", "_s"}, std::pair{"median", "_median_s"}}) {
      if (!stats.contains(key) || stats[key].is_null()) continue;
      if (!stats[key].is_number())
        return detail::bad_output(fmt::format("benchmark '{}' has a non-numeric stats.{} — is this pytest-benchmark's JSON?", raw, key));
      if (!metrics.add(raw, name + suffix, stats[key].get<double>())) return detail::bad_output(metrics.error());
    }
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
