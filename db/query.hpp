// db read-only query: runs one user-written SQL statement with every kind of write refused.
#pragma once

#include <filesystem>
#include <string_view>

#include "db/database.hpp"
#include "db/value.hpp"

namespace abtest::db {

/// Runs `sql` (one statement) on the results file at `path` and returns its columns and rows, for
/// `abtest query`. Three locks keep it read-only: the file is opened with SQLITE_OPEN_READONLY,
/// `PRAGMA query_only` is on, and an authorizer refuses every write, schema change, transaction
/// control, ATTACH/DETACH, load_extension() and any PRAGMA that is not a pure read (so
/// `PRAGMA writable_schema=1` is refused too). A refused statement throws db::error with code
/// SQLITE_AUTH and a message naming what was refused.
///
///   auto result = db::read_only_query(".abtest/results.db",
///                                     "SELECT variant, metric, ratio FROM v_latest_verdict");
query_result read_only_query(const std::filesystem::path& path, std::string_view sql, open_options options = {});

}  // namespace abtest::db
