// db migrations: the append-only, numbered list of schema changes and the code that applies them.
#pragma once

#include <span>
#include <string_view>

namespace abtest::db {

class database;

/// One schema change. Migration k takes a database from user_version k-1 to k. The list is
/// append-only: a released migration is never edited, a change to the schema is a new entry.
struct migration {
  int version;
  std::string_view name;
  std::string_view sql;
};

std::span<const migration> migrations();

/// The schema version this build writes (the last migration's number).
int latest_schema_version();

/// Applies the pending migrations up to `target` (default: latest), each in its own transaction
/// that also sets user_version, so a crash leaves the file at a whole version. Safe against a
/// concurrent migrator (it re-reads the version under the write lock). Throws db::error when the
/// file is newer than this build knows, or when `target` is below its version.
/// Returns the number of migrations applied.
int migrate(database& db, int target = -1);

/// Throws db::error unless the file's schema is exactly the latest (for read-only opens, which
/// cannot migrate): older → run `abtest db migrate`; newer → update abtest.
void require_latest_schema(database& db);

}  // namespace abtest::db
