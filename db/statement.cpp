// db::statement: prepared-statement lifecycle, binding, stepping and column reads over sqlite3_stmt.
#include "db/statement.hpp"

#include <sqlite3.h>

#include <utility>

#include "db/database.hpp"
#include "db/error.hpp"

namespace abtest::db {

statement::statement(database& db, std::string_view sql) : db_(&db), sql_(sql) {
  const char* tail = nullptr;
  const int rc = sqlite3_prepare_v2(db.native_handle(), sql_.data(), static_cast<int>(sql_.size()), &handle_,
                                    &tail);
  if (rc != SQLITE_OK) db.fail(rc, sql_);
  if (handle_ == nullptr)
    throw error(SQLITE_MISUSE, "empty statement — pass one SQL statement", sql_);
  // A second statement in the text would be silently ignored by sqlite3_step: refuse it. What
  // follows the first statement may only be whitespace, semicolons and comments (prepares to null).
  sqlite3_stmt* rest = nullptr;
  if (tail && *tail && sqlite3_prepare_v2(db.native_handle(), tail, -1, &rest, nullptr) == SQLITE_OK && !rest)
    return;
  sqlite3_finalize(rest);
  if (tail && *tail) {
    sqlite3_finalize(handle_);
    handle_ = nullptr;
    throw error(SQLITE_MISUSE, "more than one statement — run them one at a time", sql_);
  }
}

statement::~statement() { sqlite3_finalize(handle_); }

statement::statement(statement&& other) noexcept
    : db_(other.db_), handle_(std::exchange(other.handle_, nullptr)), sql_(std::move(other.sql_)) {}

statement& statement::operator=(statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(handle_);
    db_ = other.db_;
    handle_ = std::exchange(other.handle_, nullptr);
    sql_ = std::move(other.sql_);
  }
  return *this;
}

namespace {

void check_bind(database& db, int rc, const std::string& sql) {
  if (rc != SQLITE_OK) db.fail(rc, sql);
}

}  // namespace

void statement::bind(int index, std::nullptr_t) { check_bind(*db_, sqlite3_bind_null(handle_, index), sql_); }

void statement::bind(int index, std::int64_t v) { check_bind(*db_, sqlite3_bind_int64(handle_, index, v), sql_); }

void statement::bind(int index, double v) { check_bind(*db_, sqlite3_bind_double(handle_, index, v), sql_); }

void statement::bind(int index, std::string_view v) {
  check_bind(*db_, sqlite3_bind_text64(handle_, index, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8), sql_);
}

void statement::bind(int index, std::span<const std::byte> blob) {
  check_bind(*db_, sqlite3_bind_blob64(handle_, index, blob.data(), blob.size(), SQLITE_TRANSIENT), sql_);
}

int statement::parameter_index(std::string_view name) const {
  const int index = sqlite3_bind_parameter_index(handle_, std::string(name).c_str());
  if (index == 0)
    throw error(SQLITE_RANGE, "no parameter named " + std::string(name) + " — spell it as in the SQL", sql_);
  return index;
}

bool statement::step() {
  const int rc = sqlite3_step(handle_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  // The statement must be reset before reuse; the error code stays available on the connection.
  const int code = sqlite3_extended_errcode(db_->native_handle());
  std::string message = sqlite3_errmsg(db_->native_handle());
  sqlite3_reset(handle_);
  throw error(code, std::move(message), sql_);
}

void statement::execute() {
  while (step()) {
  }
  reset();
}

void statement::reset() noexcept { sqlite3_reset(handle_); }

void statement::clear_bindings() noexcept { sqlite3_clear_bindings(handle_); }

bool statement::read_only() const noexcept { return sqlite3_stmt_readonly(handle_) != 0; }

int statement::column_count() const noexcept { return sqlite3_column_count(handle_); }

std::string statement::column_name(int column) const {
  const char* name = sqlite3_column_name(handle_, column);
  return name ? name : "";
}

bool statement::column_is_null(int column) const noexcept {
  return sqlite3_column_type(handle_, column) == SQLITE_NULL;
}

std::int64_t statement::column_int64(int column) const noexcept { return sqlite3_column_int64(handle_, column); }

double statement::column_double(int column) const noexcept { return sqlite3_column_double(handle_, column); }

std::string statement::column_text(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(handle_, column));
  return text ? std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(handle_, column))) : std::string{};
}

std::vector<std::byte> statement::column_blob(int column) const {
  const auto* data = static_cast<const std::byte*>(sqlite3_column_blob(handle_, column));
  return data ? std::vector<std::byte>(data, data + sqlite3_column_bytes(handle_, column)) : std::vector<std::byte>{};
}

value statement::column_value(int column) const {
  switch (sqlite3_column_type(handle_, column)) {
    case SQLITE_INTEGER: return column_int64(column);
    case SQLITE_FLOAT: return column_double(column);
    case SQLITE_TEXT: return column_text(column);
    case SQLITE_BLOB: {
      static constexpr char digits[] = "0123456789abcdef";
      std::string literal = "x'";
      for (std::byte b : column_blob(column)) {
        literal += digits[std::to_integer<unsigned>(b) >> 4];
        literal += digits[std::to_integer<unsigned>(b) & 0xf];
      }
      return literal + "'";
    }
    default: return std::monostate{};
  }
}

}  // namespace abtest::db
