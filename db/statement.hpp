// db::statement: one RAII prepared statement — bind by index or name, step, read columns, reset.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "db/value.hpp"

struct sqlite3_stmt;  // opaque: sqlite3.h stays out of public headers

namespace abtest::db {

class database;

/// A prepared statement on one connection (which must outlive it). Parameter indexes start at 1,
/// column indexes at 0, as in SQLite. Every failure throws db::error with the statement's SQL.
///
///   db::statement q{conn, "SELECT id, value FROM metric_demo WHERE name = :name"};
///   q.bind(":name", "proof.total_s");
///   while (q.step()) use(q.column_int64(0), q.get<std::optional<double>>(1));
class statement {
 public:
  statement(database& db, std::string_view sql);
  ~statement();
  statement(statement&& other) noexcept;
  statement& operator=(statement&& other) noexcept;
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;

  void bind(int index, std::nullptr_t);
  void bind(int index, std::int64_t v);
  void bind(int index, double v);
  void bind(int index, std::string_view v);
  void bind(int index, const char* v) { bind(index, std::string_view{v}); }
  void bind(int index, const std::string& v) { bind(index, std::string_view{v}); }
  void bind(int index, std::span<const std::byte> blob);
  template <std::integral T>
  void bind(int index, T v) { bind(index, static_cast<std::int64_t>(v)); }
  template <class T>
  void bind(int index, const std::optional<T>& v) {
    if (v) bind(index, *v);
    else bind(index, nullptr);
  }
  /// Binds a named parameter (":name", "@name" or "$name", spelled as in the SQL).
  template <class T>
  void bind(std::string_view name, T&& v) { bind(parameter_index(name), std::forward<T>(v)); }
  /// Binds all parameters in order, starting at index 1.
  template <class... T>
  void bind_all(T&&... v) {
    int index = 0;
    (bind(++index, std::forward<T>(v)), ...);
  }
  int parameter_index(std::string_view name) const;

  /// Advances to the next row: true when a row is ready, false when the statement is done.
  bool step();
  /// Steps a statement that returns no rows (INSERT/UPDATE/DELETE) to completion, then resets it.
  void execute();
  /// Makes the statement runnable again; bindings are kept until clear_bindings().
  void reset() noexcept;
  void clear_bindings() noexcept;

  int column_count() const noexcept;
  std::string column_name(int column) const;
  bool column_is_null(int column) const noexcept;
  std::int64_t column_int64(int column) const noexcept;
  double column_double(int column) const noexcept;
  std::string column_text(int column) const;
  std::vector<std::byte> column_blob(int column) const;
  /// The column as a db::value, by its storage class (BLOB as an x'..' literal).
  value column_value(int column) const;

  /// Typed read: std::int64_t, int, bool, double, std::string, or std::optional of one of them
  /// (nullopt for NULL).
  template <class T>
  T get(int column) const;

  /// True when the statement cannot change the database (sqlite3_stmt_readonly).
  bool read_only() const noexcept;
  const std::string& sql() const noexcept { return sql_; }

 private:
  database* db_;
  sqlite3_stmt* handle_ = nullptr;
  std::string sql_;
};

namespace detail {
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
}  // namespace detail

template <class T>
T statement::get(int column) const {
  if constexpr (detail::is_optional<T>::value) {
    if (column_is_null(column)) return std::nullopt;
    return get<typename T::value_type>(column);
  } else if constexpr (std::same_as<T, bool>) {
    return column_int64(column) != 0;
  } else if constexpr (std::integral<T>) {
    return static_cast<T>(column_int64(column));
  } else if constexpr (std::same_as<T, double>) {
    return column_double(column);
  } else {
    static_assert(std::same_as<T, std::string>, "statement::get: unsupported type");
    return column_text(column);
  }
}

}  // namespace abtest::db
