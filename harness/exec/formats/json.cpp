// Format `json`: the abtest metrics protocol, or — with `value_field` — a declarative extractor of rows
// from any JSON document or JSON Lines, on stdout or in the file at `{out}` (design §4).
#include <optional>

#include "harness/exec/parse_support.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace json_format_detail {
using nlohmann::json;

// {"metrics": {"total_s": 1.9, ...}, "checks": {"verified": true, "digest": "…"}, "backend": "cpu",
// "context": {...}}. Metrics become `<bench>.<name>`; a null metric (a sanitised NaN) is left out;
// a non-numeric one is bad_output. Check values are kept as text (true → "true").
parsed_output parse_protocol(std::string_view bench, const json& doc, std::string_view text, std::string_view from) {
  if (!doc.is_object())
    return detail::bad_output(fmt::format("{} is JSON but not an object (it starts with '{}') — print "
                                          "{{\"metrics\": {{...}}, \"checks\": {{...}}}}", from, detail::excerpt(text)));
  parsed_output p;
  if (doc.contains("metrics")) {
    const json& metrics = doc["metrics"];
    if (!metrics.is_object())
      return detail::bad_output("\"metrics\" is not an object — print {\"metrics\": {\"total_s\": 1.9, ...}}");
    for (const auto& [name, value] : metrics.items()) {
      if (value.is_null()) continue;  // NaN / inf written as a bare token: no value this time
      if (!value.is_number())
        return detail::bad_output(fmt::format("metric '{}' is {} — metrics must be numbers (seconds, MiB "
                                              "or counts)", name, value.dump()));
      p.metrics.emplace(fmt::format("{}.{}", bench, name), value.get<double>());
    }
  }
  if (doc.contains("checks")) {
    const json& checks = doc["checks"];
    if (!checks.is_object())
      return detail::bad_output("\"checks\" is not an object — print {\"checks\": {\"verified\": true, ...}}");
    for (const auto& [name, value] : checks.items())
      p.checks.emplace(name, value.is_string() ? value.get<std::string>() : value.dump());
  }
  if (doc.contains("backend")) {
    if (!doc["backend"].is_string())
      return detail::bad_output("\"backend\" is not a string — print \"backend\": \"cpu\" or \"cuda\"");
    p.backend = doc["backend"].get<std::string>();
  }
  if (doc.contains("context")) {
    if (!doc["context"].is_object())
      return detail::bad_output("\"context\" is not an object — print \"context\": {...}");
    p.context = doc["context"];
  }
  return detail::finish(std::move(p), "print {\"metrics\": {\"total_s\": ...}} on stdout");
}

// `path` inside `doc`: a JSON Pointer ("/results/0") or dotted fields ("stats.mean"); "" is `doc`.
const json* at_path(const json& doc, std::string_view path) {
  if (path.empty()) return &doc;
  if (path.front() == '/') {
    try {
      const json::json_pointer ptr{std::string(path)};
      return doc.contains(ptr) ? &doc.at(ptr) : nullptr;
    } catch (const json::exception&) {
      return nullptr;
    }
  }
  const json* node = &doc;
  while (node != nullptr) {
    const std::size_t dot = path.find('.');
    const std::string key(path.substr(0, dot));
    if (node->is_object()) {
      const auto it = node->find(key);
      node = it == node->end() ? nullptr : &*it;
    } else if (node->is_array() && !key.empty() && key.find_first_not_of("0123456789") == std::string::npos &&
               key.size() < 9 && std::stoul(key) < node->size()) {
      node = &(*node)[std::stoul(key)];
    } else {
      node = nullptr;
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

// The rows of one document, each with its name, into `metrics`. An error message, or empty.
std::string extract(const extractor& x, const json& doc, detail::metric_set& metrics) {
  const json* rows = at_path(doc, x.rows);
  if (rows == nullptr) return {};  // a JSON Lines stream mixes messages: this one has no rows
  const auto one = [&](const std::string& key, const json& row) -> std::string {
    for (const auto& [field, wanted] : x.where.items()) {
      const json* have = at_path(row, field);
      if (have == nullptr || *have != wanted) return {};
    }
    std::string raw = key;
    if (!x.name.empty()) {
      const json* n = at_path(row, x.name);
      if (n == nullptr || n->is_null()) return fmt::format("a row has no name field '{}' — set \"name_field\" to the field that names a row", x.name);
      raw = n->is_string() ? n->get<std::string>() : n->dump();
    }
    const json* v = at_path(row, x.value);
    if (v == nullptr || v->is_null()) return {};  // no value in this row (a NaN written as null)
    std::optional<double> number;
    if (v->is_number()) number = v->get<double>();
    else if (v->is_string()) number = detail::parse_number(v->get<std::string>());
    if (!number) return fmt::format("the value of '{}' is {} — set \"value_field\" to a numeric field", raw, v->dump());
    std::string metric = raw.empty() ? "value" : sanitize_metric_name(raw);
    double scaled = *number;
    if (const double scale = detail::seconds_per(x.unit); scale > 0) {
      scaled *= scale;
      if (!metric.ends_with("_s")) metric += "_s";
    } else if (const auto suffix = detail::rate_suffix(x.unit); suffix && !metric.ends_with(*suffix)) {
      metric += *suffix;
    }
    return metrics.add(raw, metric, scaled) ? std::string() : metrics.error();
  };
  // An array: each element is a row. An object: one row when `name` says where its name is, else
  // each member is a row named by its key ({"fib_10": {"mean": …}, …}).
  if (rows->is_array()) {
    for (std::size_t i = 0; i < rows->size(); ++i)
      if (std::string e = one(std::to_string(i), (*rows)[i]); !e.empty()) return e;
  } else if (rows->is_object() && !x.name.empty()) {
    return one("", *rows);
  } else if (rows->is_object()) {
    for (const auto& [key, row] : rows->items())
      if (std::string e = one(key, row); !e.empty()) return e;
  }
  return {};
}

// One JSON document, or else JSON Lines: each line that opens with '{' or '[' one document.
std::optional<std::vector<json>> documents(const std::string& text, std::string& error) {
  try {
    return std::vector<json>{json::parse(sanitize_json_numbers(text))};
  } catch (const json::exception& e) {
    error = e.what();
  }
  std::vector<json> docs;
  std::string_view rest(text);
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || (line[first] != '{' && line[first] != '[')) continue;
    try {
      docs.push_back(json::parse(sanitize_json_numbers(line)));
    } catch (const json::exception&) {
      return std::nullopt;
    }
  }
  if (docs.size() < 1) return std::nullopt;
  return docs;
}

parsed_output parse(std::string_view bench, const json& options, const format_input& in) {
  std::string text;
  if (std::string error = detail::read_input(in, output_stream::stdout_text, text); !error.empty())
    return detail::bad_output(std::move(error));
  const std::string_view from = detail::input_name(in, output_stream::stdout_text);
  if (!options.is_object() || !options.contains("value_field")) {
    try {
      return parse_protocol(bench, json::parse(sanitize_json_numbers(text)), text, from);
    } catch (const json::exception& e) {
      return detail::bad_output(fmt::format(
          "{} is not one JSON object ({}; it starts with '{}') — print only the JSON object on "
          "stdout and logs on stderr", from, e.what(), detail::excerpt(text)));
    }
  }
  extractor x;
  const auto text_of = [&](const char* key) { return options.contains(key) && options[key].is_string() ? options[key].get<std::string>() : std::string(); };
  x.rows = text_of("rows");
  x.name = text_of("name_field");
  x.value = text_of("value_field");
  x.unit = text_of("unit");
  if (options.contains("where") && options["where"].is_object()) x.where = options["where"];
  std::string parse_error;
  const auto docs = documents(text, parse_error);
  if (!docs)
    return detail::bad_output(fmt::format("{} is neither one JSON document nor JSON Lines ({}; it starts with '{}') — "
                                          "print only JSON on stdout, logs on stderr", from, parse_error, detail::excerpt(text)));
  detail::metric_set metrics(bench);
  for (const json& doc : *docs)
    if (std::string e = extract(x, doc, metrics); !e.empty()) return detail::bad_output(std::move(e));
  return metrics.finish(parsed_output{}, fmt::format("no row at \"rows\": \"{}\" has a value at \"value_field\": \"{}\"", x.rows, x.value));
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
