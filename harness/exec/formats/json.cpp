// Format `json`: the abtest metrics protocol, or — with `value_field` — a declarative extractor of rows
// from any JSON document or JSON Lines, on stdout or in the file at `{out}` (design §4).
#include <optional>

#include "harness/exec/json_dom.hpp"
#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace json_format_detail {
using nlohmann::json;

// {"metrics": {"total_s": 1.9, ...}, "checks": {"verified": true, "digest": "…"}, "backend": "cpu",
// "context": {...}}. Metrics become `<bench>.<name>`; a null metric (a sanitised NaN) is left out;
// a non-numeric one is bad_output. Check values are kept as text (true → "true").
parsed_output parse_protocol(std::string_view bench, detail::dom_element doc, std::string_view text, std::string_view from) {
  if (!doc.is_object())
    return detail::bad_output(fmt::format("{} is JSON but not an object (it starts with '{}') — print "
                                          "{{\"metrics\": {{...}}, \"checks\": {{...}}}}", from, detail::excerpt(text)));
  parsed_output p;
  if (const auto metrics = detail::member(doc, "metrics")) {
    if (!metrics->is_object())
      return detail::bad_output("\"metrics\" is not an object — print {\"metrics\": {\"total_s\": 1.9, ...}}");
    for (const auto& [name, value] : detail::sorted_members(detail::object_of(*metrics))) {
      if (value.is_null()) continue;  // NaN / inf written as a bare token: no value this time
      const auto number = detail::number_of(value);
      if (!number)
        return detail::bad_output(fmt::format("metric '{}' is {} — metrics must be numbers (seconds, MiB "
                                              "or counts)", name, detail::to_json(value).dump()));
      p.metrics.emplace(fmt::format("{}.{}", bench, name), *number);
    }
  }
  if (const auto checks = detail::member(doc, "checks")) {
    if (!checks->is_object())
      return detail::bad_output("\"checks\" is not an object — print {\"checks\": {\"verified\": true, ...}}");
    for (const auto& [name, value] : detail::sorted_members(detail::object_of(*checks))) {
      const auto text_value = detail::string_of(value);
      p.checks.emplace(name, text_value ? std::string(*text_value) : detail::to_json(value).dump());
    }
  }
  if (const auto backend = detail::member(doc, "backend")) {
    const auto name = detail::string_of(*backend);
    if (!name) return detail::bad_output("\"backend\" is not a string — print \"backend\": \"cpu\" or \"cuda\"");
    p.backend = *name;
  }
  if (const auto context = detail::member(doc, "context")) {
    if (!context->is_object()) return detail::bad_output("\"context\" is not an object — print \"context\": {...}");
    p.context = detail::to_json(*context);
  }
  return detail::finish(std::move(p), "print {\"metrics\": {\"total_s\": ...}} on stdout");
}

// `path` inside `doc`: a JSON Pointer ("/results/0") or dotted fields ("stats.mean"); "" is `doc`.
std::optional<detail::dom_element> at_path(detail::dom_element doc, std::string_view path) {
  if (path.empty()) return doc;
  if (path.front() == '/') {
    detail::dom_element out;
    if (doc.at_pointer(path).get(out) != simdjson::SUCCESS) return std::nullopt;
    return out;
  }
  std::optional<detail::dom_element> node = doc;
  while (node) {
    const std::size_t dot = path.find('.');
    const std::string_view key = path.substr(0, dot);
    if (node->is_object()) {
      node = detail::member(*node, key);
    } else if (node->is_array() && !key.empty() && key.find_first_not_of("0123456789") == std::string_view::npos &&
               key.size() < 9) {
      detail::dom_element item;
      node = detail::array_of(*node).at(std::stoul(std::string(key))).get(item) == simdjson::SUCCESS
                 ? std::optional<detail::dom_element>(item) : std::nullopt;
    } else {
      node = std::nullopt;
    }
    if (dot == std::string_view::npos) break;
    path.remove_prefix(dot + 1);
  }
  return node;
}

struct extractor {
  std::string rows, name, value, unit;
  json where = json::object();
};

// One row, named `key` unless `name_field` names it, into `metrics`. An error message, or empty.
std::string extract_row(const extractor& x, const std::string& key, detail::dom_element row, detail::metric_set& metrics) {
  for (const auto& [field, wanted] : x.where.items()) {
    const auto have = at_path(row, field);
    if (!have || detail::to_json(*have) != wanted) return {};
  }
  std::string raw = key;
  if (!x.name.empty()) {
    const auto n = at_path(row, x.name);
    if (!n || n->is_null()) return fmt::format("a row has no name field '{}' — set \"name_field\" to the field that names a row", x.name);
    const auto text = detail::string_of(*n);
    raw = text ? std::string(*text) : detail::to_json(*n).dump();
  }
  const auto v = at_path(row, x.value);
  if (!v || v->is_null()) return {};  // no value in this row (a NaN written as null)
  std::optional<double> number = detail::number_of(*v);
  if (const auto text = detail::string_of(*v)) number = detail::parse_number(*text);
  if (!number) return fmt::format("the value of '{}' is {} — set \"value_field\" to a numeric field", raw, detail::to_json(*v).dump());
  std::string metric = raw.empty() ? "value" : sanitize_metric_name(raw);
  double scaled = *number;
  if (const double scale = detail::seconds_per(x.unit); scale > 0) {
    scaled *= scale;
    if (!metric.ends_with("_s")) metric += "_s";
  } else if (const auto suffix = detail::rate_suffix(x.unit); suffix && !metric.ends_with(*suffix)) {
    metric += *suffix;
  }
  return metrics.add(raw, metric, scaled) ? std::string() : metrics.error();
}

// The rows of one document, each with its name, into `metrics`. An error message, or empty.
std::string extract(const extractor& x, detail::dom_element doc, detail::metric_set& metrics) {
  const auto rows = at_path(doc, x.rows);
  if (!rows) return {};  // a JSON Lines stream mixes messages: this one has no rows
  // An array: each element is a row. An object: one row when `name` says where its name is, else
  // each member is a row named by its key ({"fib_10": {"mean": …}, …}).
  if (rows->is_array()) {
    std::size_t i = 0;
    for (const detail::dom_element row : detail::array_of(*rows))
      if (std::string e = extract_row(x, std::to_string(i++), row, metrics); !e.empty()) return e;
  } else if (rows->is_object() && !x.name.empty()) {
    return extract_row(x, "", *rows, metrics);
  } else if (rows->is_object()) {
    for (const auto& [key, row] : detail::sorted_members(detail::object_of(*rows)))
      if (std::string e = extract_row(x, std::string(key), row, metrics); !e.empty()) return e;
  }
  return {};
}

// JSON Lines: each line that opens with '{' or '[' one document, extracted in turn (after a row's
// error, the lines left are only read). False when a line is not JSON, or no line is a document.
// `padded` is the whole text: each line is parsed where it lies, the bytes after it serving as
// simdjson's padding (no copy per line).
bool extract_lines(const extractor& x, const simdjson::padded_string& padded, detail::metric_set& metrics, std::string& row_error) {
  simdjson::dom::parser parser;
  std::string_view rest(padded.data(), padded.size());
  int documents = 0;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || (line[first] != '{' && line[first] != '[')) continue;
    detail::dom_element doc;
    if (parser.parse(line.data(), line.size(), false).get(doc) != simdjson::SUCCESS &&
        !detail::parse_sanitized(parser, line, doc))
      return false;
    ++documents;
    if (row_error.empty()) row_error = extract(x, doc, metrics);
  }
  return documents > 0;
}

// The extractor over one JSON document, or else JSON Lines.
parsed_output parse_rows(std::string_view bench, const extractor& x, const std::string& text, std::string_view from) {
  detail::metric_set metrics(bench);
  std::string row_error;
  simdjson::dom::parser parser;
  detail::dom_element doc;
  // Tried in the order that costs least: the text as it is, then as JSON Lines, then with bare
  // NaN / inf cleaned up (which reads the same as cleaning first: valid JSON holds no bare word).
  const simdjson::padded_string padded(text);
  if (parser.parse(padded).get(doc) == simdjson::SUCCESS) {
    row_error = extract(x, doc, metrics);
  } else if (!extract_lines(x, padded, metrics, row_error)) {
    metrics = detail::metric_set(bench);
    row_error.clear();
    if (std::string reason = detail::parse_dom(parser, text, doc); !reason.empty())
      return detail::bad_output(fmt::format("{} is neither one JSON document nor JSON Lines ({}; it starts with '{}') — "
                                            "print only JSON on stdout, logs on stderr", from, reason, detail::excerpt(text)));
    row_error = extract(x, doc, metrics);
  }
  if (!row_error.empty()) return detail::bad_output(std::move(row_error));
  return metrics.finish(parsed_output{}, fmt::format("no row at \"rows\": \"{}\" has a value at \"value_field\": \"{}\"", x.rows, x.value));
}

parsed_output parse(std::string_view bench, const json& options, const format_input& in) {
  std::string text;
  if (std::string error = detail::read_input(in, output_stream::stdout_text, text); !error.empty())
    return detail::bad_output(std::move(error));
  const std::string_view from = detail::input_name(in, output_stream::stdout_text);
  if (!options.is_object() || !options.contains("value_field")) {
    simdjson::dom::parser parser;
    detail::dom_element doc;
    if (std::string reason = detail::parse_dom(parser, text, doc); !reason.empty())
      return detail::bad_output(fmt::format(
          "{} is not one JSON object ({}; it starts with '{}') — print only the JSON object on "
          "stdout and logs on stderr", from, reason, detail::excerpt(text)));
    return parse_protocol(bench, doc, text, from);
  }
  extractor x;
  const auto text_of = [&](const char* key) { return options.contains(key) && options[key].is_string() ? options[key].get<std::string>() : std::string(); };
  x.rows = text_of("rows");
  x.name = text_of("name_field");
  x.value = text_of("value_field");
  x.unit = text_of("unit");
  if (options.contains("where") && options["where"].is_object()) x.where = options["where"];
  return parse_rows(bench, x, text, from);
}

json options(const json& b) {
  json out = json::object();
  // Not `name`: that key names the benchmark itself.
  for (const char* key : {"rows", "name_field", "value_field", "unit"}) {
    if (!b.contains(key)) continue;
    if (!b[key].is_string()) throw format_key_error{key, "must be a string", "e.g. \"rows\": \"results\", \"value_field\": \"stats.mean\""};
    out[key] = b[key];
  }
  if (b.contains("where")) {
    if (!b["where"].is_object()) throw format_key_error{"where", "must be an object of field → value", "e.g. {\"reason\": \"benchmark-complete\"}"};
    out["where"] = b["where"];
  }
  if (!out.empty() && !out.contains("value_field"))
    throw format_key_error{"value_field", "missing", "the extractor needs the field that holds each row's number, e.g. \"value_field\": \"mean\""};
  if (out.contains("unit")) {
    const std::string unit = out["unit"];
    if (detail::seconds_per(unit) == 0 && !detail::rate_suffix(unit))
      throw format_key_error{"unit", fmt::format("unknown unit \"{}\"", unit),
                             "use a time (ps, ns, us, ms, s, min) or a rate (MB/s, GiB/s, ops/s, /s)"};
  }
  return out;
}
}  // namespace json_format_detail

const output_format_row& json_format() {
  static const output_format_row row{"json",
                                     "one JSON object on stdout (or at {out}); with \"value_field\", rows of any JSON or JSON Lines",
                                     output_stream::stdout_text, "total_s", {"rows", "name_field", "value_field", "unit", "where"},
                                     json_format_detail::options, json_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
