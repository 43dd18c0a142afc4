// db migrations: applying the numbered schema steps (schema_steps.cpp) forward, one transaction each.
#include "db/migrations.hpp"

#include <sqlite3.h>

#include <string>

#include "db/database.hpp"
#include "db/error.hpp"
#include "db/transaction.hpp"

namespace abtest::db {

namespace {

[[noreturn]] void fail_newer(database& db, int current) {
  throw error(SQLITE_ERROR, db.path().string() + " has schema version " + std::to_string(current) +
                                ", newer than this abtest knows (" + std::to_string(latest_schema_version()) +
                                ") — update abtest");
}

void check_target(database& db, int current, int target) {
  if (current > latest_schema_version()) fail_newer(db, current);
  if (current > target)
    throw error(SQLITE_ERROR, db.path().string() + " is at schema version " + std::to_string(current) +
                                  ", past the requested " + std::to_string(target) + " — migrations only go forward");
}

}  // namespace

int migrate(database& db, int target) {
  if (target < 0) target = latest_schema_version();
  if (target > latest_schema_version())
    throw error(SQLITE_ERROR, "no schema version " + std::to_string(target) + " (latest is " +
                                  std::to_string(latest_schema_version()) + ")");
  int applied = 0;
  for (;;) {
    int current = db.user_version();
    check_target(db, current, target);
    if (current == target) return applied;  // the common case takes no write lock
    transaction tx{db};
    // Read again under the write lock: another process may have migrated while we waited.
    current = db.user_version();
    check_target(db, current, target);
    if (current == target) return applied;
    const migration& step = migrations()[static_cast<std::size_t>(current)];  // versions are 1, 2, 3, ...
    db.exec(step.sql);
    db.set_user_version(step.version);
    tx.commit();
    ++applied;
  }
}

void require_latest_schema(database& db) {
  const int current = db.user_version();
  if (current == latest_schema_version()) return;
  if (current > latest_schema_version()) fail_newer(db, current);
  throw error(SQLITE_ERROR, db.path().string() + " has schema version " + std::to_string(current) + ", expected " +
                                std::to_string(latest_schema_version()) + " — run `abtest db migrate`");
}

}  // namespace abtest::db
