// Helpers shared by the output formats' parsers (not part of the public API).
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "harness/exec/format.hpp"
#include "harness/exec/parsers.hpp"

namespace abtest::exec::detail {

inline parsed_output bad_output(std::string error) {
  parsed_output p;
  p.status = sample_status::bad_output;
  p.error = std::move(error);
  return p;
}

// The first `n` characters of `text` on one line, for error messages.
inline std::string excerpt(std::string_view text, std::size_t n = 60) {
  std::string out;
  for (char c : text.substr(0, n)) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (text.size() > n) out += "…";
  return out;
}

// One character of a metric name: ASCII letters, digits and '_' stay, anything else becomes '_'
// (design §4). In ASCII, not through the locale's isalnum: a name must not depend on the environment.
constexpr char metric_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_';
}

// Median of a non-empty list: the middle value, or the mean of the two middle values.
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// Seconds per unit of a printed time (`ps`, `ns`, `us`/`µs`/`μs`, `ms`, `s`, `min`; also Google
// Benchmark's time_unit); 0 for anything else.
double seconds_per(std::string_view unit);

// The metric-name suffix of a printed rate, keeping its scale: `MB/s` → `_mb_per_s`, `GiB/s` →
// `_gib_per_s`, `ops/s` → `_ops_per_s`, `/s` → `_per_s`; nullopt for anything else. Every rate
// name ends in `_per_s`: that is how a metric's direction (higher is better) is known.
std::optional<std::string> rate_suffix(std::string_view unit);

// A printed number: optional sign, digits with optional thousands separators (`1,234,567.8`), an
// optional exponent. nullopt for anything else, including NaN and infinities.
std::optional<double> parse_number(std::string_view text);

// Text kept for the lifetime of its owner in blocks that never move, so views into it stay valid
// while more is added: one allocation per 64 KiB instead of one per string.
class text_pool {
 public:
  std::string_view keep(std::string_view text);

 private:
  static constexpr std::size_t block_size = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t size_ = 0, used_ = 0;  // of the last block (a text over block_size gets its own)
};

// The metrics of one sample, built name by name. A raw name (a benchmark's id as the tool prints
// it) seen again adds a value (several lines or repetitions: their median, one value per process,
// design §6); two different raw names that sanitise to the same metric are an error, never a
// silent median of two benchmarks.
class metric_set {
 public:
  explicit metric_set(std::string_view bench) : bench_(bench) {}
  // Adds `value` to `<bench>.<metric>`, where `metric` was made from `raw`. False (and error()
  // says why) when another raw name already made that metric, or the value is not finite.
  bool add(std::string_view raw, std::string_view metric, double value);
  const std::string& error() const { return error_; }
  // Medians into p.metrics; p.status ok, or no_metrics with `what_to_check`.
  parsed_output finish(parsed_output p, std::string_view what_to_check) const;

 private:
  // Hashed by views into `text_`, and the first value held inline: most metrics are seen once, and
  // a sample of a big output holds thousands (the parse-cost benchmark's gbench input: 15,000), so
  // the set allocates per block of names, not per name (see the benchmark's figures).
  struct seen {
    std::string_view raw;
    double first = 0;
    std::vector<double> more;
  };
  std::string bench_;
  std::string name_;  // the name being looked up, reused
  text_pool text_;
  std::unordered_map<std::string_view, seen> seen_;
  std::string error_;
};

// Sets status to ok or no_metrics once a parser has filled the metrics.
parsed_output finish(parsed_output p, std::string_view what_to_check);

// The text a format reads: the file at in.out when the command named `{out}`, else the stream(s)
// of `from`. Returns an error message (empty on success) when `{out}` was named but the program
// left no readable file there.
std::string read_input(const format_input& in, output_stream from, std::string& text);

// For error messages: where the text came from ("stdout", "the file at {out}").
std::string_view input_name(const format_input& in, output_stream from);

}  // namespace abtest::exec::detail
