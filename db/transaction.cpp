// db::transaction: BEGIN IMMEDIATE / COMMIT with busy retry, or a SAVEPOINT when nested.
#include "db/transaction.hpp"

#include <atomic>

#include "db/database.hpp"

namespace abtest::db {

namespace {

std::string next_savepoint_name() {
  static std::atomic<unsigned long> counter{0};
  return "abtest_sp_" + std::to_string(++counter);
}

}  // namespace

transaction::transaction(database& db) : db_(db) {
  if (db_.in_transaction()) {
    savepoint_ = next_savepoint_name();
    db_.exec("SAVEPOINT " + savepoint_);
  } else {
    db_.exec_retrying_busy("BEGIN IMMEDIATE");
  }
}

transaction::~transaction() {
  if (!open_) return;
  try {
    rollback();
  } catch (...) {
    // Destructors never throw. A failed rollback leaves the connection's transaction to be
    // rolled back when it closes, which SQLite does.
  }
}

void transaction::commit() {
  if (savepoint_.empty()) db_.exec_retrying_busy("COMMIT");
  else db_.exec("RELEASE " + savepoint_);
  open_ = false;
}

void transaction::rollback() {
  open_ = false;
  if (savepoint_.empty()) {
    // SQLite may already have rolled back on its own (e.g. after SQLITE_FULL or an interrupt).
    if (db_.in_transaction()) db_.exec("ROLLBACK");
  } else {
    db_.exec("ROLLBACK TO " + savepoint_ + "; RELEASE " + savepoint_);
  }
}

}  // namespace abtest::db
