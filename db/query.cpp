// db read-only query: the authorizer that refuses writes, and the row collection for the CLI.
#include "db/query.hpp"

#include <sqlite3.h>

#include <array>
#include <cctype>
#include <optional>
#include <string>

#include "db/error.hpp"
#include "db/statement.hpp"

namespace abtest::db {

namespace {

// PRAGMAs that only read, when given without a value. Anything else (including journal_mode,
// writable_schema, and every pragma given a value) is refused.
constexpr std::array<std::string_view, 22> read_only_pragmas{
    "application_id",   "collation_list", "compile_options",   "database_list",     "foreign_key_check",
    "foreign_key_list", "freelist_count", "function_list",     "index_info",        "index_list",
    "index_xinfo",      "integrity_check", "module_list",      "page_count",        "page_size",
    "pragma_list",      "quick_check",    "schema_version",    "table_info",        "table_list",
    "table_xinfo",      "user_version"};

/// Names of the other actions the authorizer refuses, for the error message.
std::string action_name(int action) {
  switch (action) {
    case SQLITE_CREATE_TABLE: case SQLITE_CREATE_TEMP_TABLE: return "CREATE TABLE";
    case SQLITE_CREATE_INDEX: case SQLITE_CREATE_TEMP_INDEX: return "CREATE INDEX";
    case SQLITE_CREATE_VIEW: case SQLITE_CREATE_TEMP_VIEW: return "CREATE VIEW";
    case SQLITE_CREATE_TRIGGER: case SQLITE_CREATE_TEMP_TRIGGER: return "CREATE TRIGGER";
    case SQLITE_DROP_TABLE: case SQLITE_DROP_TEMP_TABLE: return "DROP TABLE";
    case SQLITE_DROP_INDEX: case SQLITE_DROP_TEMP_INDEX: return "DROP INDEX";
    case SQLITE_DROP_VIEW: case SQLITE_DROP_TEMP_VIEW: return "DROP VIEW";
    case SQLITE_DROP_TRIGGER: case SQLITE_DROP_TEMP_TRIGGER: return "DROP TRIGGER";
    case SQLITE_ALTER_TABLE: return "ALTER TABLE";
    case SQLITE_TRANSACTION: case SQLITE_SAVEPOINT: return "transaction control";
    default: return "a statement that changes the database (authorizer action " + std::to_string(action) + ")";
  }
}

struct authorizer_state {
  std::string refused;  ///< what the authorizer refused, for the error message
};

bool is_read_only_pragma(const char* name, const char* argument) {
  if (!name) return false;
  std::string lower{name};
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view allowed : read_only_pragmas) {
    if (lower != allowed) continue;
    // table_info(x) and friends take their argument in parentheses; a value "= x" sets the pragma.
    const bool takes_argument = allowed.starts_with("table_") || allowed.starts_with("index_") ||
                                allowed == "foreign_key_list" || allowed == "foreign_key_check" ||
                                allowed == "integrity_check" || allowed == "quick_check";
    return argument == nullptr || takes_argument;
  }
  return false;
}

int authorize(void* user, int action, const char* arg1, const char* arg2, const char*, const char*) {
  auto& state = *static_cast<authorizer_state*>(user);
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_FUNCTION:
      if (arg2 && std::string_view(arg2) == "load_extension") {
        state.refused = "load_extension()";
        return SQLITE_DENY;
      }
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      if (is_read_only_pragma(arg1, arg2)) return SQLITE_OK;
      state.refused = "PRAGMA " + std::string(arg1 ? arg1 : "") + (arg2 ? " = " + std::string(arg2) : "");
      return SQLITE_DENY;
    case SQLITE_ATTACH: state.refused = "ATTACH"; return SQLITE_DENY;
    case SQLITE_DETACH: state.refused = "DETACH"; return SQLITE_DENY;
    case SQLITE_INSERT: state.refused = "INSERT into " + std::string(arg1 ? arg1 : ""); return SQLITE_DENY;
    case SQLITE_UPDATE: state.refused = "UPDATE of " + std::string(arg1 ? arg1 : ""); return SQLITE_DENY;
    case SQLITE_DELETE: state.refused = "DELETE from " + std::string(arg1 ? arg1 : ""); return SQLITE_DENY;
    default:
      break;
  }
  if (state.refused.empty()) state.refused = action_name(action);
  return SQLITE_DENY;
}

}  // namespace

query_result read_only_query(const std::filesystem::path& path, std::string_view sql, open_options options) {
  database db{path, open_mode::read_only, options};
  authorizer_state state;
  sqlite3_set_authorizer(db.native_handle(), authorize, &state);
  auto refuse = [&](const std::string& what) -> error {
    return error(SQLITE_AUTH,
                 "query refused: " + what + " — abtest query only reads; use `abtest db` to change the file",
                 std::string(sql));
  };
  std::optional<statement> q;
  try {
    q.emplace(db, sql);
  } catch (const error& e) {
    // A denial surfaces as SQLITE_AUTH, or as SQLITE_SCHEMA / SQLITE_ERROR for some statements.
    if (!state.refused.empty()) throw refuse(state.refused);
    throw;
  }
  if (!q->read_only()) throw refuse("a statement that writes");
  query_result result;
  for (int c = 0; c < q->column_count(); ++c) result.columns.push_back(q->column_name(c));
  while (q->step()) {
    auto& row = result.rows.emplace_back();
    for (int c = 0; c < q->column_count(); ++c) row.push_back(q->column_value(c));
  }
  return result;
}

}  // namespace abtest::db
