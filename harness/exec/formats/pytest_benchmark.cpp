// Format `pytest-benchmark`: the JSON pytest-benchmark writes with --benchmark-json {out} (design §4).
#include "harness/exec/timed_rows.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace pytest_benchmark_format_detail {
using nlohmann::json;

// {"benchmarks": [{"name": "test_sum[10000]", "fullname": "…::test_sum[10000]", "stats": {"mean": s,
// "median": s, …}}, …]}: `<name>_s` the mean, `<name>_median_s` the median, in seconds.
parsed_output parse(std::string_view bench, const json&, const format_input& in) {
  return detail::parse_timed_rows(
      bench, in,
      {"pytest-benchmark's JSON", "run pytest with --benchmark-json {out}", "benchmarks",
       "pytest-benchmark JSON without a \"benchmarks\" array — run pytest with --benchmark-json {out}", "name", "stats",
       "a pytest-benchmark entry without \"name\" or \"stats\" — is this --benchmark-json output?",
       "benchmark '{}' has a non-numeric stats.{} — is this pytest-benchmark's JSON?",
       "pytest-benchmark's JSON holds no benchmark — check that pytest collected the benchmark tests (-k, the test path)"});
}
}  // namespace pytest_benchmark_format_detail

const output_format_row& pytest_benchmark_format() {
  static const output_format_row row{"pytest-benchmark", "the file pytest writes with --benchmark-json {out}",
                                     output_stream::stdout_text, "", {}, no_options, pytest_benchmark_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
