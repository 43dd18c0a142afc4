// Reading a format's JSON fast: simdjson's DOM for the document, nlohmann only for a rejected
// text's message and for the values a sample keeps as nlohmann::json (design §4).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "harness/exec/format.hpp"

namespace abtest::exec::detail {

using dom_element = simdjson::dom::element;

// Parses `text` into `parser`'s document and points `root` at it (valid until the parser parses
// again). Bare NaN / Infinity tokens read as null, as sanitize_json_numbers makes them. Returns
// empty on success, else nlohmann's reason (it names the line and column, which simdjson's does
// not): the text is tried as it is first, so only a rejected text pays for the clean-up and for
// nlohmann. A text only nlohmann reads (an integer beyond 64 bits, 1e400) is read through it.
std::string parse_dom(simdjson::dom::parser& parser, std::string_view text, dom_element& root);

// parse_dom without the message, for a caller that tries other readings before paying for
// nlohmann's: the text as it is, else with bare NaN / Infinity as null.
bool parse_sanitized(simdjson::dom::parser& parser, std::string_view text, dom_element& root);

// The format's input (stdout, or the file at {out}) parsed as one JSON document by parse_dom.
// Returns an error message (empty on success): the read's, or "<input> is not <what> (<parser's
// reason>; it starts with '…') — <what_to_do>".
std::string read_json_document(const format_input& in, std::string_view what, std::string_view what_to_do,
                               simdjson::dom::parser& parser, dom_element& root);

// The value as nlohmann::json: integers stay integers, a repeated key keeps its last value.
nlohmann::json to_json(dom_element e);

// Member `key` of an object — the last one of that name, as nlohmann keeps it; nullopt when `e`
// is not an object or lacks it.
std::optional<dom_element> member(dom_element e, std::string_view key);

// The array or object `e` is (an empty one when it is not: check is_array() / is_object() first).
simdjson::dom::array array_of(dom_element e);
simdjson::dom::object object_of(dom_element e);

// The string `e` holds; nullopt for any other type.
std::optional<std::string_view> string_of(dom_element e);
// The number `e` holds (an integer converted); nullopt for any other type.
std::optional<double> number_of(dom_element e);

// An object's members in key order, a repeated key once with its last value: nlohmann's order,
// which the formats' messages (the first bad member, the first colliding name) follow.
std::vector<std::pair<std::string_view, dom_element>> sorted_members(simdjson::dom::object o);

}  // namespace abtest::exec::detail
