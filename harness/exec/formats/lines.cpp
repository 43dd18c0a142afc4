// Format `lines`: metrics taken from free-form output by RE2 patterns, in the units people print
// (design §4).
#include <cctype>
#include <memory>
#include <optional>

#include <fmt/ranges.h>
#include <re2/re2.h>

#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace lines_format_detail {
using nlohmann::json;

// One pattern: with `fixed` empty, group 1 names the metric, group 2 is its value and optional
// group 3 its unit; with `fixed`, the metric is that name, group 1 its value, optional group 2 its unit.
struct line_pattern {
  std::string fixed;
  std::string text;
  // RE2, not std::regex: its matching takes time linear in the line and no stack, where
  // libstdc++'s recursive std::regex overflowed the stack (SIGSEGV, abtest itself) on a line of
  // 100,000 characters, and read zstd's output at half RE2's speed (parse-cost benchmark).
  std::unique_ptr<const re2::RE2> re;
  // The literal text every match starts with, when the pattern opens with one: lines without it
  // are skipped before RE2 is asked (a search's setup costs more than a find; most lines of a
  // log match nothing).
  std::string literal;
};

std::string leading_literal(std::string_view pattern) {
  std::string out;
  // An alternation anywhere may let a match start otherwise ("a|b"): then there is no literal.
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') ++i;
    else if (pattern[i] == '|') return out;
  }
  static constexpr std::string_view meta = "^$\\.*+?()[]{}|";
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size() && std::ispunct(static_cast<unsigned char>(pattern[i + 1])) != 0) {
      out += pattern[++i];
    } else if (meta.find(c) != std::string_view::npos) {
      break;
    } else {
      out += c;
    }
    // A quantifier after this character would make it optional: keep only what surely precedes it.
    if (i + 1 < pattern.size() && std::string_view("*+?{").find(pattern[i + 1]) != std::string_view::npos) {
      out.pop_back();
      break;
    }
  }
  return out;
}

// Why a pattern cannot be used, and what to do.
struct pattern_error {
  std::string what, fix;
};

// Compiles `p`; what is wrong with it, if anything.
std::optional<pattern_error> compile(line_pattern& p) {
  re2::RE2::Options o;
  o.set_log_errors(false);
  auto re = std::make_unique<const re2::RE2>(p.text, o);
  if (!re->ok())
    return pattern_error{fmt::format("is not a valid RE2 regular expression ({})", re->error()),
                         "RE2 has no lookaround or backreferences; see https://github.com/google/re2/wiki/Syntax"};
  const int need = p.fixed.empty() ? 2 : 1;
  if (re->NumberOfCapturingGroups() < need)
    return p.fixed.empty() ? pattern_error{"needs capture groups (name) (value) [(unit)]", "e.g. \"TIMING: (\\\\w+) ([0-9.]+) (ms)\""}
                           : pattern_error{"needs a capture group (value) [(unit)]", "e.g. \"([0-9.,]+) (MB/s)\""};
  p.re = std::move(re);
  p.literal = leading_literal(p.text);
  return std::nullopt;
}

// The patterns of the options, not yet compiled.
std::vector<line_pattern> patterns_of(const json& options) {
  std::vector<line_pattern> out;
  if (!options.is_object()) return out;
  if (options.contains("pattern") && options["pattern"].is_string()) out.push_back({"", options["pattern"], {}, {}});
  if (options.contains("patterns") && options["patterns"].is_object())
    for (const auto& [name, text] : options["patterns"].items())
      if (text.is_string()) out.push_back({name, text.get<std::string>(), {}, {}});
  return out;
}

// A line holding carriage returns as a terminal shows it: each `\r` returns to column 0 and what
// follows overwrites what was there (progress updates, then the result: zstd -b prints
// "…  25.9 MB/s, 206.6 MB/s\r 1#", which reads " 1#Synthetic 50% : … 25.9 MB/s, 206.6 MB/s").
std::string_view terminal_view(std::string_view line, std::string& shown) {
  if (line.find('\r') == std::string_view::npos) return line;
  shown.clear();
  while (true) {
    const std::size_t cr = line.find('\r');
    const std::string_view part = line.substr(0, cr);
    shown.replace(0, std::min(part.size(), shown.size()), part);
    if (cr == std::string_view::npos) break;
    line.remove_prefix(cr + 1);
  }
  return shown;
}

// Adds one match (`groups[0]` the whole match, then the pattern's groups; an unmatched group is
// null); an error message, or empty.
std::string add_match(const line_pattern& p, const std::vector<re2::StringPiece>& groups, std::size_t line_no,
                      detail::metric_set& metrics) {
  const auto text = [&](std::size_t i) { return std::string_view(groups[i].data(), groups[i].size()); };
  const auto matched = [&](std::size_t i) { return i < groups.size() && groups[i].data() != nullptr; };
  const std::size_t value_group = p.fixed.empty() ? 2 : 1;
  if (!matched(value_group) || (p.fixed.empty() && !matched(1))) return {};
  const std::string raw = p.fixed.empty() ? std::string(text(1)) : p.fixed;
  std::string name = sanitize_metric_name(raw);
  const auto value = detail::parse_number(text(value_group));
  if (!value)
    return fmt::format("line {}: value '{}' of {} is not a number — make the value group of the pattern capture only "
                       "the number", line_no, text(value_group), name);
  double scaled = *value;
  if (matched(value_group + 1)) {
    const std::string_view unit = text(value_group + 1);
    if (const double scale = detail::seconds_per(unit); scale > 0) {
      scaled *= scale;
      if (!name.ends_with("_s")) name += "_s";
    } else if (const auto suffix = detail::rate_suffix(unit)) {
      if (!name.ends_with(*suffix)) name += *suffix;
    } else {
      return fmt::format("line {}: unit '{}' of {} is neither a time (ps, ns, us, µs, ms, s, min) nor a rate (MB/s, "
                         "MiB/s, GB/s, GiB/s, KB/s, ops/s, /s) — make the unit group capture the unit", line_no, unit, name);
    }
  }
  return metrics.add(raw, name, scaled) ? std::string() : metrics.error();
}

// Every line of stdout and stderr on which a pattern matches (search, not full match) gives a
// metric. A value with a time unit is stored in seconds and its name gets `_s`; one with a rate
// keeps the printed scale and its name gets `_<scale>_per_s` (`MB/s` → `_mb_per_s`); a value
// without a unit is stored as is. A name seen on several lines gets the median of its values.
parsed_output parse(std::string_view bench, const json& options, const format_input& in) {
  std::string error;
  std::vector<line_pattern> patterns = patterns_of(options);
  for (auto& p : patterns)
    if (const auto e = compile(p)) return detail::bad_output(fmt::format("pattern '{}' {} — {}", p.text, e->what, e->fix));
  if (patterns.empty()) return detail::bad_output("format lines without a pattern — give \"pattern\" or \"patterns\"");
  std::string all;
  if (error = detail::read_input(in, output_stream::both, all); !error.empty()) return detail::bad_output(std::move(error));

  detail::metric_set metrics(bench);
  std::string_view text(all);
  std::string shown;
  std::vector<re2::StringPiece> groups;
  std::size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    line = terminal_view(line, shown);
    for (const auto& p : patterns) {
      if (!p.literal.empty() && line.find(p.literal) == std::string_view::npos) continue;
      groups.resize(1 + std::min(p.re->NumberOfCapturingGroups(), p.fixed.empty() ? 3 : 2));
      if (!p.re->Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), re2::RE2::UNANCHORED, groups.data(),
                       static_cast<int>(groups.size())))
        continue;
      if (error = add_match(p, groups, line_no, metrics); !error.empty()) return detail::bad_output(std::move(error));
    }
  }
  std::vector<std::string> texts;
  for (const auto& p : patterns) texts.push_back(p.text);
  return metrics.finish(parsed_output{}, fmt::format("no line matched the pattern{} '{}'", texts.size() > 1 ? "s" : "",
                                                     fmt::join(texts, "', '")));
}

json options(const json& b) {
  json out = json::object();
  if (b.contains("pattern")) {
    if (!b["pattern"].is_string()) throw format_key_error{"pattern", "must be a string", "e.g. \"TIMING: (\\\\w+) ([0-9.]+) (ms)\""};
    out["pattern"] = b["pattern"];
  }
  if (b.contains("patterns")) {
    const json& ps = b["patterns"];
    if (!ps.is_object() || ps.empty())
      throw format_key_error{"patterns", "must be an object of metric name → pattern",
                             "e.g. {\"compress\": \"([0-9.,]+) (MB/s),\"} (group 1 the value, optional group 2 the unit)"};
    for (const auto& [name, text] : ps.items()) {
      if (!text.is_string()) throw format_key_error{"patterns." + name, "must be a string", "write the pattern as a string"};
      if (name.empty() || sanitize_metric_name(name) != name)
        throw format_key_error{"patterns." + name, "is not a metric name", "use [A-Za-z0-9_], e.g. \"compress\""};
    }
    out["patterns"] = ps;
  }
  if (out.empty())
    throw format_key_error{"pattern", "missing", "format \"lines\" needs a pattern with groups (name) (value) [(unit)], or \"patterns\""};
  // Each pattern compiles and has its groups; the key named is the one to fix.
  for (auto& p : patterns_of(out))
    if (const auto e = compile(p)) throw format_key_error{p.fixed.empty() ? "pattern" : "patterns." + p.fixed, e->what, e->fix};
  return out;
}
}  // namespace lines_format_detail

const output_format_row& lines_format() {
  static const output_format_row row{"lines", "stdout and stderr, line by line, through RE2 patterns",
                                     output_stream::both, "total_s", {"pattern", "patterns"}, lines_format_detail::options, lines_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
