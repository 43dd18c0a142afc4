// Format `libtest`: Rust's built-in bench harness, `test NAME ... bench: 1,234 ns/iter (+/- 56)`
// (also what Criterion prints with --output-format bencher) (design §4).
#include "harness/exec/parse_support.hpp"
#include "harness/exec/text.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace libtest_format_detail {

// One `test NAME ... bench: VALUE ns/iter (+/- DEV)[ = N MB/s]` line into `metrics`: `<name>_s`
// (and `<name>_mb_per_s` where libtest printed b.bytes' throughput). False on a bad value.
bool read_line(std::string_view line, std::size_t line_no, detail::metric_set& metrics, std::string& error) {
  if (!line.starts_with("test ")) return true;
  const std::size_t dots = line.find(" ... bench:");
  if (dots == std::string_view::npos) return true;
  const std::string raw(detail::trim(line.substr(5, dots - 5)));
  std::string_view rest = detail::trim(line.substr(dots + 11));
  const std::size_t space = rest.find(' ');
  if (space == std::string_view::npos) return true;
  const std::string_view value_text = rest.substr(0, space);
  rest = detail::trim(rest.substr(space));
  if (!rest.starts_with("ns/iter")) return true;
  const auto value = detail::parse_number(value_text);
  if (!value) {
    error = fmt::format("line {}: '{}' of {} is not a number of ns/iter — is this libtest's bench output?", line_no, value_text, raw);
    return false;
  }
  const std::string name = sanitize_metric_name(raw);
  if (!metrics.add(raw, name + "_s", *value * 1e-9)) return error = metrics.error(), false;
  if (const std::size_t eq = rest.find(") = "); eq != std::string_view::npos) {
    std::string_view thrpt = detail::trim(rest.substr(eq + 4));
    const std::size_t sp = thrpt.find(' ');
    if (sp != std::string_view::npos)
      if (const auto rate = detail::parse_number(thrpt.substr(0, sp)))
        if (const auto suffix = detail::rate_suffix(detail::trim(thrpt.substr(sp))))
          if (!metrics.add(raw + " throughput", name + *suffix, *rate)) return error = metrics.error(), false;
  }
  return true;
}

parsed_output parse(std::string_view bench, const nlohmann::json&, const format_input& in) {
  std::string all;
  if (std::string error = detail::read_input(in, output_stream::stdout_text, all); !error.empty())
    return detail::bad_output(std::move(error));
  detail::metric_set metrics(bench);
  std::string error;
  std::string_view text(all);
  for (std::size_t line_no = 1; !text.empty(); ++line_no) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!read_line(line, line_no, metrics, error)) return detail::bad_output(std::move(error));
  }
  return metrics.finish(parsed_output{}, "no `test NAME ... bench: N ns/iter` line — run the bench target with `cargo "
                                         "bench` (libtest #[bench]) or Criterion's --output-format bencher");
}
}  // namespace libtest_format_detail

const output_format_row& libtest_format() {
  static const output_format_row row{"libtest", "stdout: `test NAME ... bench: 1,234 ns/iter (+/- 56)` lines",
                                     output_stream::stdout_text, "", {}, no_options, libtest_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
