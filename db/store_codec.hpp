// db store codec (private to the store): record fields ↔ column values (JSON, times, enums), and
// a query's rows read into records.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "db/records.hpp"
#include "db/statement.hpp"
#include "db/time_text.hpp"

namespace abtest::db::codec {

inline std::string json_text(const nlohmann::json& j) { return j.dump(); }
inline nlohmann::json json_at(const statement& q, int column) { return nlohmann::json::parse(q.column_text(column)); }
inline std::optional<nlohmann::json> optional_json_at(const statement& q, int column) {
  if (q.column_is_null(column)) return std::nullopt;
  return json_at(q, column);
}

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

/// Runs `sql` with `params` bound in order from index 1 and returns read(q) for each row, in the
/// query's order:  select_rows(db, "SELECT ... WHERE experiment_id = ?", read_effect, experiment_id).
template <class Read, class... Params>
auto select_rows(database& db, std::string_view sql, Read read, Params&&... params) {
  statement q{db, sql};
  q.bind_all(std::forward<Params>(params)...);
  std::vector<std::invoke_result_t<Read&, const statement&>> rows;
  while (q.step()) rows.push_back(read(q));
  return rows;
}

}  // namespace abtest::db::codec
