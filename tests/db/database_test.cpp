// Tests of db::database: pragmas on open, application_id stamping and refusal, open modes.
#include "db/database.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>

#include "db/error.hpp"
#include "db/statement.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using ::testing::HasSubstr;
using testing::make_foreign_file;
using testing::temp_dir;

std::int64_t pragma(database& db, const std::string& name) {
  statement q{db, "PRAGMA " + name};
  EXPECT_TRUE(q.step());
  return q.column_int64(0);
}

TEST(database, new_file_gets_wal_pragmas_and_application_id) {
  temp_dir dir;
  database db{dir / "results.db", open_mode::read_write_create, {std::chrono::milliseconds(1234)}};
  statement mode{db, "PRAGMA journal_mode"};
  ASSERT_TRUE(mode.step());
  EXPECT_EQ(mode.column_text(0), "wal");
  EXPECT_EQ(pragma(db, "foreign_keys"), 1);
  EXPECT_EQ(pragma(db, "synchronous"), 1);  // NORMAL
  EXPECT_EQ(pragma(db, "busy_timeout"), 1234);
  EXPECT_EQ(pragma(db, "application_id"), results_application_id);
  EXPECT_EQ(db.busy_timeout(), std::chrono::milliseconds(1234));
}

TEST(database, default_busy_timeout_is_thirty_seconds) {
  temp_dir dir;
  database db{dir / "results.db"};
  EXPECT_EQ(pragma(db, "busy_timeout"), 30000);
}

TEST(database, refuses_a_file_of_another_application_and_leaves_it_alone) {
  temp_dir dir;
  make_foreign_file(dir / "other.db", "PRAGMA application_id = 305419896; CREATE TABLE t(x);");
  for (open_mode mode : {open_mode::read_write_create, open_mode::read_write, open_mode::read_only}) {
    try {
      database db{dir / "other.db", mode};
      FAIL() << "opened a foreign file";
    } catch (const error& e) {
      EXPECT_THAT(e.what(), HasSubstr("another application"));
      EXPECT_THAT(e.what(), HasSubstr("305419896"));
      EXPECT_EQ(e.code(), SQLITE_MISMATCH);
    }
  }
}

TEST(database, refuses_a_nonempty_file_without_application_id) {
  temp_dir dir;
  make_foreign_file(dir / "plain.db", "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
  EXPECT_THROW(database(dir / "plain.db"), error);
  // Nothing was stamped on the way.
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "plain.db").c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "PRAGMA application_id", -1, &q, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(q, 0), 0);
  sqlite3_finalize(q);
  sqlite3_close(raw);
}

TEST(database, says_when_a_file_is_not_sqlite) {
  temp_dir dir;
  std::ofstream(dir / "notes.txt") << "these are not the results you are looking for, padded to a page\n"
                                   << std::string(200, 'x');
  try {
    database db{dir / "notes.txt"};
    FAIL() << "opened a text file";
  } catch (const error& e) {
    EXPECT_EQ(e.primary_code(), SQLITE_NOTADB);
    EXPECT_THAT(e.what(), HasSubstr("not an SQLite database"));
  }
}

TEST(database, read_write_and_read_only_do_not_create_a_missing_file) {
  temp_dir dir;
  EXPECT_THROW(database(dir / "missing.db", open_mode::read_write), error);
  EXPECT_THROW(database(dir / "missing.db", open_mode::read_only), error);
  EXPECT_FALSE(std::filesystem::exists(dir / "missing.db"));
}

TEST(database, read_only_connection_refuses_writes) {
  temp_dir dir;
  {
    database db{dir / "results.db"};
    db.exec("CREATE TABLE t(x)");
  }
  database reader{dir / "results.db", open_mode::read_only};
  EXPECT_EQ(pragma(reader, "query_only"), 1);
  try {
    reader.exec("INSERT INTO t VALUES (1)");
    FAIL() << "a read-only connection wrote";
  } catch (const error& e) {
    EXPECT_EQ(e.primary_code(), SQLITE_READONLY);
    EXPECT_EQ(e.sql(), "INSERT INTO t VALUES (1)");
  }
}

TEST(database, reopening_our_own_file_works_in_every_mode) {
  temp_dir dir;
  { database db{dir / "results.db"}; db.exec("CREATE TABLE t(x)"); }
  EXPECT_NO_THROW(database(dir / "results.db", open_mode::read_write));
  EXPECT_NO_THROW(database(dir / "results.db", open_mode::read_only));
}

TEST(database, moves_transfer_the_connection) {
  temp_dir dir;
  database a{dir / "results.db"};
  a.exec("CREATE TABLE t(x)");
  database b = std::move(a);
  EXPECT_EQ(a.native_handle(), nullptr);
  b.exec("INSERT INTO t VALUES (1)");
  EXPECT_EQ(b.last_insert_rowid(), 1);
  EXPECT_EQ(b.changes(), 1);
}

TEST(database, user_version_round_trips) {
  temp_dir dir;
  database db{dir / "results.db"};
  EXPECT_EQ(db.user_version(), 0);
  db.set_user_version(5);
  EXPECT_EQ(db.user_version(), 5);
}

}  // namespace
}  // namespace abtest::db
