// Output format names, dispatch, and the text clean-ups shared by the parsers.
#include "harness/exec/parsers.hpp"

#include <cctype>

namespace abtest::exec {

std::string_view to_string(output_format format) {
  switch (format) {
    case output_format::gbench: return "gbench";
    case output_format::json: return "json";
    case output_format::lines: return "lines";
    case output_format::process: return "process";
  }
  return "unknown";
}

std::optional<output_format> parse_output_format(std::string_view text) {
  if (text == "gbench") return output_format::gbench;
  if (text == "json") return output_format::json;
  if (text == "lines") return output_format::lines;
  if (text == "process") return output_format::process;
  return std::nullopt;
}

parsed_output parse_output(output_format format, std::string_view bench, std::string_view pattern,
                           std::string_view stdout_text, std::string_view stderr_text) {
  switch (format) {
    case output_format::gbench: return parse_gbench(bench, stdout_text);
    case output_format::json: return parse_json(bench, stdout_text);
    case output_format::lines: {
      std::string both(stdout_text);
      if (!both.empty() && both.back() != '\n') both += '\n';
      both += stderr_text;
      return parse_lines(bench, pattern, both);
    }
    case output_format::process: {
      parsed_output p;  // nothing to read: the executor adds the process's metrics
      p.status = sample_status::ok;
      return p;
    }
  }
  parsed_output p;
  p.error = "unknown output format — use gbench, json, lines or process";
  return p;
}

std::string sanitize_json_numbers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto alpha = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      if (c == '"') in_string = false;
      ++i;
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      ++i;
      continue;
    }
    const bool signed_word = (c == '-' || c == '+') && i + 1 < text.size() && alpha(text[i + 1]);
    if (!alpha(c) && !signed_word) {
      out += c;
      ++i;
      continue;
    }
    std::size_t end = i + (signed_word ? 1 : 0);
    while (end < text.size() && alpha(text[end])) ++end;
    std::string word(text.substr(i + (signed_word ? 1 : 0), end - i - (signed_word ? 1 : 0)));
    for (char& w : word) w = static_cast<char>(std::tolower(static_cast<unsigned char>(w)));
    if (word == "nan" || word == "inf" || word == "infinity") {
      out += "null";
    } else {
      out.append(text.substr(i, end - i));
    }
    i = end;
  }
  return out;
}

std::string sanitize_metric_name(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    if (!keep) c = '_';
  }
  return out;
}

}  // namespace abtest::exec
