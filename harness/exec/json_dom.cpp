// simdjson's DOM behind the JSON formats, with nlohmann's reasons for rejected texts.
#include "harness/exec/json_dom.hpp"

#include <algorithm>

#include "harness/exec/parse_support.hpp"

namespace abtest::exec::detail {

namespace {
bool parse_as_is(simdjson::dom::parser& parser, std::string_view text, dom_element& root) {
  // simdjson reads up to SIMDJSON_PADDING bytes past the end: the padded copy provides them.
  const simdjson::padded_string padded(text);
  return parser.parse(padded).get(root) == simdjson::SUCCESS;
}
}  // namespace

bool parse_sanitized(simdjson::dom::parser& parser, std::string_view text, dom_element& root) {
  if (parse_as_is(parser, text, root)) return true;
  const std::string sanitized = sanitize_json_numbers(text);
  return sanitized != text && parse_as_is(parser, sanitized, root);
}

std::string parse_dom(simdjson::dom::parser& parser, std::string_view text, dom_element& root) {
  if (parse_sanitized(parser, text, root)) return {};
  const std::string sanitized = sanitize_json_numbers(text);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(sanitized);
  } catch (const nlohmann::json::exception& e) {
    return e.what();
  }
  // nlohmann took what simdjson refused: numbers out of simdjson's range. Its own writing of
  // them (a double, or null for an infinity) is what the formats then read.
  if (parse_as_is(parser, doc.dump(), root)) return {};
  return "a number outside the range of a double";
}

std::string read_json_document(const format_input& in, std::string_view what, std::string_view what_to_do,
                               simdjson::dom::parser& parser, dom_element& root) {
  std::string text;
  if (std::string error = read_input(in, output_stream::stdout_text, text); !error.empty()) return error;
  if (std::string reason = parse_dom(parser, text, root); !reason.empty())
    return fmt::format("{} is not {} ({}; it starts with '{}') — {}", input_name(in, output_stream::stdout_text), what, reason,
                       excerpt(text), what_to_do);
  return {};
}

nlohmann::json to_json(dom_element e) {
  using simdjson::dom::element_type;
  switch (e.type()) {
    case element_type::ARRAY: {
      nlohmann::json out = nlohmann::json::array();
      for (dom_element item : array_of(e)) out.push_back(to_json(item));
      return out;
    }
    case element_type::OBJECT: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto field : object_of(e)) out[std::string(field.key)] = to_json(field.value);
      return out;
    }
    case element_type::INT64: return e.get_int64().value_unsafe();
    case element_type::UINT64: return e.get_uint64().value_unsafe();
    case element_type::DOUBLE: return e.get_double().value_unsafe();
    case element_type::STRING: return std::string(e.get_string().value_unsafe());
    case element_type::BOOL: return e.get_bool().value_unsafe();
    case element_type::NULL_VALUE: break;
  }
  return nullptr;
}

std::optional<dom_element> member(dom_element e, std::string_view key) {
  simdjson::dom::object object;
  if (e.get_object().get(object) != simdjson::SUCCESS) return std::nullopt;
  std::optional<dom_element> found;
  for (const auto field : object)
    if (field.key == key) found = field.value;
  return found;
}

simdjson::dom::array array_of(dom_element e) {
  simdjson::dom::array out;
  if (e.get_array().get(out) != simdjson::SUCCESS) return {};
  return out;
}

simdjson::dom::object object_of(dom_element e) {
  simdjson::dom::object out;
  if (e.get_object().get(out) != simdjson::SUCCESS) return {};
  return out;
}

std::optional<std::string_view> string_of(dom_element e) {
  std::string_view s;
  if (e.get_string().get(s) != simdjson::SUCCESS) return std::nullopt;
  return s;
}

std::optional<double> number_of(dom_element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::INT64: return static_cast<double>(e.get_int64().value_unsafe());
    case simdjson::dom::element_type::UINT64: return static_cast<double>(e.get_uint64().value_unsafe());
    case simdjson::dom::element_type::DOUBLE: return e.get_double().value_unsafe();
    default: return std::nullopt;
  }
}

std::vector<std::pair<std::string_view, dom_element>> sorted_members(simdjson::dom::object o) {
  std::vector<std::pair<std::string_view, dom_element>> out;
  for (const auto field : o) out.emplace_back(field.key, field.value);
  // Stable, then the last of each run of equal keys: nlohmann's map overwrites a repeated key.
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<std::string_view, dom_element>> unique;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (i + 1 == out.size() || out[i + 1].first != out[i].first) unique.push_back(out[i]);
  return unique;
}

}  // namespace abtest::exec::detail
