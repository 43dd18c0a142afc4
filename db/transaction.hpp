// db::transaction: RAII write transaction (BEGIN IMMEDIATE), rolled back unless committed.
#pragma once

#include <string>

namespace abtest::db {

class database;

/// Takes the write lock at once (BEGIN IMMEDIATE), waiting out other writers with backoff, so a
/// transaction never fails half-way with SQLITE_BUSY. Opened while another transaction is active
/// on the connection, it becomes a SAVEPOINT, so store functions compose. The destructor rolls
/// back an uncommitted transaction and never throws.
///
///   db::transaction tx{conn};
///   ... writes ...
///   tx.commit();  // without this line, leaving the scope (or an exception) undoes the writes
class transaction {
 public:
  explicit transaction(database& db);
  ~transaction();
  transaction(const transaction&) = delete;
  transaction& operator=(const transaction&) = delete;

  void commit();
  /// Undoes the writes now; the destructor then does nothing.
  void rollback();

 private:
  database& db_;
  std::string savepoint_;  ///< empty for a top-level transaction
  bool open_ = true;
};

}  // namespace abtest::db
