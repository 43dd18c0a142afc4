// db store codec (private to the store): record fields ↔ column values (JSON, times, enums).
#pragma once

#include <optional>
#include <string>

#include "db/records.hpp"
#include "db/statement.hpp"
#include "db/time_text.hpp"

namespace abtest::db::codec {

inline std::string json_text(const nlohmann::json& j) { return j.dump(); }
inline nlohmann::json json_at(const statement& q, int column) { return nlohmann::json::parse(q.column_text(column)); }

inline std::string levels_text(const level_map& levels) { return nlohmann::json(levels).dump(); }
inline level_map levels_at(const statement& q, int column) { return json_at(q, column).get<level_map>(); }

inline std::optional<std::string> time_text(const std::optional<time_point>& t) {
  if (!t) return std::nullopt;
  return format_utc(*t);
}
inline time_point time_at(const statement& q, int column) { return parse_utc(q.column_text(column)); }
inline std::optional<time_point> optional_time_at(const statement& q, int column) {
  if (q.column_is_null(column)) return std::nullopt;
  return time_at(q, column);
}

template <class E>
E enum_at(const statement& q, int column) {
  return parse<E>(q.column_text(column));
}

/// An optional enum as its text, or NULL (for optional filters and nullable enum columns).
template <class E>
std::optional<std::string> enum_text(const std::optional<E>& v) {
  if (!v) return std::nullopt;
  return std::string(to_string(*v));
}

}  // namespace abtest::db::codec
