// db::database: one RAII SQLite connection, opened with the pragmas every abtest results file needs.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

struct sqlite3;  // opaque: sqlite3.h stays out of public headers

namespace abtest::db {

enum class open_mode {
  read_write_create,  ///< create the file when missing
  read_write,         ///< the file must exist
  read_only,          ///< SQLITE_OPEN_READONLY + PRAGMA query_only
};

struct open_options {
  /// How long a writer waits for another connection's lock before giving up with SQLITE_BUSY.
  std::chrono::milliseconds busy_timeout{30'000};
};

/// Stamped into the file header (PRAGMA application_id) so `file(1)` and we recognise a results file:
/// the bytes "ABTS".
inline constexpr std::int32_t results_application_id = 0x41425453;

/// An open connection. Opening for writing turns on WAL, `synchronous=NORMAL`, `foreign_keys=ON` and
/// the busy timeout, and stamps `application_id` into a new file. Any mode refuses a file whose
/// application_id is another non-zero value, or a non-empty SQLite file without ours (someone
/// else's database), so a typo in `--db` can never write into a foreign file.
///
/// One connection belongs to one thread at a time; open one per thread or process.
///
///   db::database conn{".abtest/results.db"};
///   db::transaction tx{conn};
///   db::statement insert{conn, "INSERT INTO reference(label, metric, value) VALUES (?, ?, ?)"};
///   ...
///   tx.commit();
class database {
 public:
  explicit database(const std::filesystem::path& path, open_mode mode = open_mode::read_write_create,
                    open_options options = {});
  ~database();
  database(database&& other) noexcept;
  database& operator=(database&& other) noexcept;
  database(const database&) = delete;
  database& operator=(const database&) = delete;

  /// Runs one or more statements that return no rows we need (DDL, pragmas). Throws db::error.
  void exec(std::string_view sql);
  /// Like exec, but retries SQLITE_BUSY with exponential backoff until the busy timeout has
  /// passed. Used for BEGIN IMMEDIATE and COMMIT, the two places a second writer makes us wait.
  void exec_retrying_busy(std::string_view sql);

  bool in_transaction() const noexcept;
  std::int64_t last_insert_rowid() const noexcept;
  /// Rows changed by the most recent INSERT/UPDATE/DELETE.
  std::int64_t changes() const noexcept;

  /// PRAGMA user_version: the schema version (see migrations.hpp).
  int user_version();
  void set_user_version(int version);

  open_mode mode() const noexcept { return mode_; }
  const std::filesystem::path& path() const noexcept { return path_; }
  std::chrono::milliseconds busy_timeout() const noexcept { return options_.busy_timeout; }
  sqlite3* native_handle() const noexcept { return handle_; }

  /// Throws db::error for result code `rc`, with this connection's current message and `sql`.
  [[noreturn]] void fail(int rc, std::string_view sql) const;

 private:
  void configure();
  void check_application_id();

  sqlite3* handle_ = nullptr;
  std::filesystem::path path_;
  open_mode mode_;
  open_options options_;
};

}  // namespace abtest::db
