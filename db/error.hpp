// db::error: the exception every database failure becomes, carrying SQLite's code, message and SQL.
#pragma once

#include <stdexcept>
#include <string>

namespace abtest::db {

/// A failed SQLite call. `code()` is SQLite's extended result code (e.g. 2067 =
/// SQLITE_CONSTRAINT_UNIQUE); `primary_code()` its low byte (19 = SQLITE_CONSTRAINT).
/// `what()` reads "<sqlite message> [<code>] in: <sql>" so a caller can print it as is.
class error : public std::runtime_error {
 public:
  error(int extended_code, std::string message, std::string sql = {});

  int code() const noexcept { return code_; }
  int primary_code() const noexcept { return code_ & 0xff; }
  /// SQLite's own message (sqlite3_errmsg at the time of failure, or ours for checks we make).
  const std::string& message() const noexcept { return message_; }
  /// The statement that failed; empty when the failure was not tied to one (opening a file).
  const std::string& sql() const noexcept { return sql_; }

 private:
  int code_;
  std::string message_;
  std::string sql_;
};

}  // namespace abtest::db
