// db::error: formats SQLite's code, message and the failing SQL into one readable line.
#include "db/error.hpp"

#include <sqlite3.h>

namespace abtest::db {

namespace {

std::string describe(int code, const std::string& message, const std::string& sql) {
  std::string text = message + " [" + sqlite3_errstr(code) + ", code " + std::to_string(code) + "]";
  if (!sql.empty()) text += " in: " + sql;
  return text;
}

}  // namespace

error::error(int extended_code, std::string message, std::string sql)
    : std::runtime_error(describe(extended_code, message, sql)),
      code_(extended_code),
      message_(std::move(message)),
      sql_(std::move(sql)) {}

}  // namespace abtest::db
