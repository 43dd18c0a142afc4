// Parser of free-form output through a regular expression (format `lines`, design §4).
#include <charconv>
#include <regex>

#include "harness/exec/parse_support.hpp"
#include "harness/exec/parsers.hpp"

namespace abtest::exec {

parsed_output parse_lines(std::string_view bench, std::string_view pattern, std::string_view text) {
  std::regex re;
  try {
    re.assign(pattern.begin(), pattern.end(), std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return detail::bad_output(fmt::format("invalid pattern '{}': {} — write an ECMAScript regular "
                                          "expression", pattern, e.what()));
  }
  if (re.mark_count() < 2)
    return detail::bad_output(fmt::format("pattern '{}' needs capture groups: (name) (value) [(unit)] — "
                                          "e.g. \"TIMING: (\\\\w+) ([0-9.]+) (ms)\"", pattern));

  std::map<std::string, std::vector<double>> seen;
  std::size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::match_results<std::string_view::const_iterator> m;
    if (!std::regex_search(line.begin(), line.end(), m, re) || !m[1].matched || !m[2].matched) continue;

    std::string name = sanitize_metric_name(m[1].str());
    const std::string value_text = m[2].str();
    double value = 0;
    const auto [end, ec] = std::from_chars(value_text.data(), value_text.data() + value_text.size(), value);
    if (ec != std::errc{} || end != value_text.data() + value_text.size())
      return detail::bad_output(fmt::format("line {}: value '{}' of {} is not a number — make group 2 of "
                                            "the pattern capture only the number", line_no, value_text, name));
    if (re.mark_count() >= 3 && m[3].matched) {
      const std::string unit = m[3].str();
      const double scale = detail::seconds_per(unit);
      if (scale == 0.0)
        return detail::bad_output(fmt::format("line {}: unit '{}' of {} is not s, ms, us or ns — make "
                                              "group 3 capture the time unit", line_no, unit, name));
      value *= scale;
      if (!name.ends_with("_s")) name += "_s";
    }
    seen[fmt::format("{}.{}", bench, name)].push_back(value);
  }
  parsed_output p;
  p.metrics = detail::medians(seen);
  return detail::finish(std::move(p), fmt::format("no line matched the pattern '{}'", pattern));
}

}  // namespace abtest::exec
