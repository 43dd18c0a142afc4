// db::database: opening, configuring and closing one SQLite connection; busy-retry for lock waits.
#include "db/database.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <random>
#include <thread>
#include <utility>

#include "db/error.hpp"
#include "db/statement.hpp"

namespace abtest::db {

namespace {

int open_flags(open_mode mode) {
  switch (mode) {
    case open_mode::read_write_create: return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    case open_mode::read_write: return SQLITE_OPEN_READWRITE;
    case open_mode::read_only: return SQLITE_OPEN_READONLY;
  }
  return SQLITE_OPEN_READONLY;
}

std::int64_t single_integer(database& db, std::string_view sql) {
  statement query{db, sql};
  query.step();
  return query.column_int64(0);
}

}  // namespace

database::database(const std::filesystem::path& path, open_mode mode, open_options options)
    : path_(path), mode_(mode), options_(options) {
  const int rc = sqlite3_open_v2(path.c_str(), &handle_, open_flags(mode) | SQLITE_OPEN_EXRESCODE, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = handle_ ? sqlite3_errmsg(handle_) : sqlite3_errstr(rc);
    sqlite3_close_v2(handle_);
    handle_ = nullptr;
    throw error(rc, "cannot open " + path.string() + ": " + message +
                        " — check the path given with --db / $ABTEST_DB and its permissions");
  }
  try {
    configure();
  } catch (...) {
    sqlite3_close_v2(handle_);
    handle_ = nullptr;
    throw;
  }
}

database::~database() {
  // sqlite3_close_v2 defers the close if a statement is still alive instead of failing.
  if (handle_) sqlite3_close_v2(handle_);
}

database::database(database&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      path_(std::move(other.path_)),
      mode_(other.mode_),
      options_(other.options_) {}

database& database::operator=(database&& other) noexcept {
  if (this != &other) {
    if (handle_) sqlite3_close_v2(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    path_ = std::move(other.path_);
    mode_ = other.mode_;
    options_ = other.options_;
  }
  return *this;
}

void database::configure() {
  sqlite3_busy_timeout(handle_, static_cast<int>(options_.busy_timeout.count()));
  check_application_id();
  if (mode_ == open_mode::read_only) {
    exec("PRAGMA query_only = ON");
    return;
  }
  exec("PRAGMA foreign_keys = ON");
  statement wal{*this, "PRAGMA journal_mode = WAL"};
  wal.step();
  if (wal.column_text(0) != "wal")
    throw error(SQLITE_ERROR, "cannot switch " + path_.string() + " to WAL (journal_mode is " +
                                  wal.column_text(0) + ") — put the results file on a local file system",
                "PRAGMA journal_mode = WAL");
  exec("PRAGMA synchronous = NORMAL");
}

void database::check_application_id() {
  std::int64_t id = 0, tables = 0;
  try {
    // One read transaction for both facts: a process creating the same new file sets the id and
    // then migrates, and read apart they could be seen as "no id, but tables" (a foreign file).
    exec("BEGIN");
    id = single_integer(*this, "PRAGMA application_id");
    tables = single_integer(*this, "SELECT count(*) FROM sqlite_schema");
    exec("COMMIT");
  } catch (const error& e) {
    if (!sqlite3_get_autocommit(handle_)) sqlite3_exec(handle_, "ROLLBACK", nullptr, nullptr, nullptr);
    // A process killed inside a write before the file was in WAL mode (its very first open)
    // leaves a hot rollback journal, which only a writer may roll back.
    if (e.code() == SQLITE_READONLY_ROLLBACK)
      throw error(e.code(), path_.string() + " holds an unfinished write of a killed process (a hot journal) — "
                                             "open it once for writing, e.g. `abtest db migrate`, to roll it back");
    if (e.primary_code() != SQLITE_NOTADB) throw;
    throw error(e.code(), path_.string() + " is not an SQLite database — pass the results file with --db");
  }
  if (id == results_application_id) return;
  if (id != 0)
    throw error(SQLITE_MISMATCH, path_.string() + " belongs to another application (application_id " +
                                     std::to_string(id) + ") — pass an abtest results file with --db");
  if (tables != 0)
    throw error(SQLITE_MISMATCH, path_.string() +
                                     " is an SQLite database of another application (no abtest application_id)"
                                     " — pass an abtest results file with --db");
  if (mode_ != open_mode::read_only)
    exec("PRAGMA application_id = " + std::to_string(results_application_id));
}

void database::exec(std::string_view sql) {
  const std::string text{sql};
  char* message = nullptr;
  const int rc = sqlite3_exec(handle_, text.c_str(), nullptr, nullptr, &message);
  if (rc == SQLITE_OK) return;
  std::string what = message ? message : sqlite3_errmsg(handle_);
  sqlite3_free(message);
  throw error(sqlite3_extended_errcode(handle_), std::move(what), text);
}

void database::exec_retrying_busy(std::string_view sql) {
  // sqlite3's busy handler already waits inside most calls; this loop covers the SQLITE_BUSY
  // results it does not (it is not invoked in some lock upgrades), with jittered exponential
  // backoff so that two writers do not retry in lockstep.
  const auto deadline = std::chrono::steady_clock::now() + options_.busy_timeout;
  std::minstd_rand jitter{std::random_device{}()};
  std::chrono::microseconds backoff{500};
  for (;;) {
    try {
      exec(sql);
      return;
    } catch (const error& e) {
      if (e.primary_code() != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline) throw;
    }
    std::this_thread::sleep_for(backoff + std::chrono::microseconds(jitter() % backoff.count()));
    backoff = std::min<std::chrono::microseconds>(backoff * 2, std::chrono::milliseconds(100));
  }
}

bool database::in_transaction() const noexcept { return sqlite3_get_autocommit(handle_) == 0; }

std::int64_t database::last_insert_rowid() const noexcept { return sqlite3_last_insert_rowid(handle_); }

std::int64_t database::changes() const noexcept { return sqlite3_changes64(handle_); }

int database::user_version() { return static_cast<int>(single_integer(*this, "PRAGMA user_version")); }

void database::set_user_version(int version) { exec("PRAGMA user_version = " + std::to_string(version)); }

void database::fail(int rc, std::string_view sql) const {
  throw error(rc, sqlite3_errmsg(handle_), std::string(sql));
}

}  // namespace abtest::db
