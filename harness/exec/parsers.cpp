// The text clean-ups and helpers shared by the output formats' parsers.
#include "harness/exec/parsers.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

parsed_output parse_gbench(std::string_view bench, std::string_view text) { return parse_text("gbench", bench, text); }
parsed_output parse_json(std::string_view bench, std::string_view text) { return parse_text("json", bench, text); }
parsed_output parse_lines(std::string_view bench, std::string_view pattern, std::string_view text) {
  return parse_text("lines", bench, text, {{"pattern", std::string(pattern)}});
}

std::string sanitize_json_numbers(std::string_view text) {
  // Copies runs of untouched text at once: the scan only stops at strings (skipped whole) and words.
  std::string out;
  out.reserve(text.size());
  const auto alpha = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  const auto is = [](std::string_view word, std::string_view lower) {
    if (word.size() != lower.size()) return false;
    for (std::size_t k = 0; k < word.size(); ++k)
      if (std::tolower(static_cast<unsigned char>(word[k])) != lower[k]) return false;
    return true;
  };
  std::size_t copied = 0;  // text[copied, i) is still to be appended as it is
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      for (i = text.find_first_of("\\\"", i + 1); i < text.size() && text[i] == '\\'; i = text.find_first_of("\\\"", i + 2)) {
      }
      i = i < text.size() ? i + 1 : text.size();
      continue;
    }
    const bool signed_word = (c == '-' || c == '+') && i + 1 < text.size() && alpha(text[i + 1]);
    if (!alpha(c) && !signed_word) {
      ++i;
      continue;
    }
    const std::size_t start = i + (signed_word ? 1 : 0);
    std::size_t end = start;
    while (end < text.size() && alpha(text[end])) ++end;
    const std::string_view word = text.substr(start, end - start);
    if (is(word, "nan") || is(word, "inf") || is(word, "infinity")) {
      out.append(text.substr(copied, i - copied));
      out += "null";
      copied = end;
    }
    i = end;
  }
  out.append(text.substr(copied));
  return out;
}

std::string sanitize_metric_name(std::string_view name) {
  std::string out(name);
  for (char& c : out) c = detail::metric_name_char(c);
  return out;
}

namespace detail {

double seconds_per(std::string_view unit) {
  if (unit == "s" || unit == "sec") return 1.0;
  if (unit == "ms") return 1e-3;
  if (unit == "us" || unit == "µs" || unit == "μs") return 1e-6;  // U+00B5 micro sign, U+03BC mu
  if (unit == "ns") return 1e-9;
  if (unit == "ps") return 1e-12;
  if (unit == "min" || unit == "m") return 60.0;
  return 0.0;
}

std::optional<std::string> rate_suffix(std::string_view unit) {
  if (!unit.ends_with("/s")) return std::nullopt;
  const std::string_view scale = unit.substr(0, unit.size() - 2);
  if (scale.empty()) return std::string("_per_s");
  static constexpr std::string_view known[] = {"B", "KB", "kB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB",
                                               "ops", "op", "items", "elem", "iter"};
  for (const auto k : known) {
    if (k != scale) continue;
    std::string out = "_";
    for (const char c : scale) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out + "_per_s";
  }
  return std::nullopt;
}

std::optional<double> parse_number(std::string_view text) {
  std::string digits;
  digits.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // A thousands separator sits between two digits: "1,234" but not "1," or ",5".
    if (c == ',' && i > 0 && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i - 1])) != 0 &&
        std::isdigit(static_cast<unsigned char>(text[i + 1])) != 0)
      continue;
    digits += c;
  }
  if (digits.empty()) return std::nullopt;
  const char* first = digits.data() + (digits.front() == '+' ? 1 : 0);
  if (first == digits.data() + digits.size() || !(std::isdigit(static_cast<unsigned char>(*first)) || *first == '-' || *first == '.'))
    return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(first, digits.data() + digits.size(), value);
  if (ec != std::errc{} || end != digits.data() + digits.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::string_view text_pool::keep(std::string_view text) {
  if (text.empty()) return {};
  if (text.size() > size_ - used_) {
    size_ = std::max(block_size, text.size());
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size_));
    used_ = 0;
  }
  char* at = blocks_.back().get() + used_;
  std::copy(text.begin(), text.end(), at);
  used_ += text.size();
  return {at, text.size()};
}

bool metric_set::add(std::string_view raw, std::string_view metric, double value) {
  ((name_.assign(bench_) += '.') += metric);
  if (!std::isfinite(value)) {
    error_ = fmt::format("benchmark '{}' reported {} — a metric must be a finite number", raw, value);
    return false;
  }
  const auto it = seen_.find(name_);
  if (it == seen_.end()) {
    seen_.emplace(text_.keep(name_), seen{text_.keep(raw), value, {}});
    return true;
  }
  if (it->second.raw != raw) {
    error_ = fmt::format("benchmarks '{}' and '{}' both become the metric {} (characters outside [A-Za-z0-9_] become "
                         "'_') — rename one of them so that their names differ in letters or digits",
                         it->second.raw, raw, it->first);
    return false;
  }
  it->second.more.push_back(value);
  return true;
}

parsed_output metric_set::finish(parsed_output p, std::string_view what_to_check) const {
  std::vector<const std::pair<const std::string_view, seen>*> sorted;
  sorted.reserve(seen_.size());
  for (const auto& entry : seen_) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
  for (const auto* entry : sorted) {  // in key order: each insertion at the end, O(1)
    const seen& s = entry->second;
    double value = s.first;
    if (!s.more.empty()) {
      std::vector<double> all = s.more;
      all.push_back(s.first);
      value = median(std::move(all));
    }
    p.metrics.emplace_hint(p.metrics.end(), entry->first, value);
  }
  return detail::finish(std::move(p), what_to_check);
}

parsed_output finish(parsed_output p, std::string_view what_to_check) {
  if (p.metrics.empty()) {
    p.status = sample_status::no_metrics;
    p.error = fmt::format("the output holds no metric — {}", what_to_check);
  } else {
    p.status = sample_status::ok;
  }
  return p;
}

std::string read_input(const format_input& in, output_stream from, std::string& text) {
  if (!in.out.empty()) {
    std::ifstream file(in.out, std::ios::binary);
    if (!file)
      return fmt::format("the program wrote no file at {{out}} ({}) — check that the command passes {{out}} where "
                         "the tool takes its output file", in.out.string());
    std::ostringstream buffer;
    buffer << file.rdbuf();
    text = std::move(buffer).str();
    return {};
  }
  switch (from) {
    case output_stream::stdout_text: text = in.stdout_text; break;
    case output_stream::stderr_text: text = in.stderr_text; break;
    case output_stream::both:
      text = in.stdout_text;
      if (!text.empty() && text.back() != '\n') text += '\n';
      text += in.stderr_text;
      break;
    case output_stream::none: text.clear(); break;
  }
  return {};
}

std::string_view input_name(const format_input& in, output_stream from) {
  if (!in.out.empty()) return "the file at {out}";
  switch (from) {
    case output_stream::stdout_text: return "stdout";
    case output_stream::stderr_text: return "stderr";
    case output_stream::both: return "the output";
    case output_stream::none: break;
  }
  return "the output";
}

}  // namespace detail
}  // namespace abtest::exec
