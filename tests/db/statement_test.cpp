// Tests of db::statement: binding every type by index and by name, stepping, reading, errors.
#include "db/statement.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "db/database.hpp"
#include "db/error.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using ::testing::HasSubstr;
using testing::temp_dir;

class statement_test : public ::testing::Test {
 protected:
  statement_test() : db_(dir_ / "results.db") {
    db_.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT UNIQUE, b BLOB)");
  }
  temp_dir dir_;
  database db_;
};

TEST_F(statement_test, binds_by_index_and_reads_every_type_back) {
  const std::vector<std::byte> blob{std::byte{0x00}, std::byte{0xab}, std::byte{0xff}};
  statement insert{db_, "INSERT INTO t(i, r, s, b) VALUES (?, ?, ?, ?)"};
  insert.bind(1, std::int64_t{-9'000'000'000});
  insert.bind(2, 2.5);
  insert.bind(3, std::string("héllo\0world", 11));  // embedded NUL survives
  insert.bind(4, std::span<const std::byte>(blob));
  insert.execute();

  statement select{db_, "SELECT i, r, s, b, typeof(b) FROM t"};
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_int64(0), -9'000'000'000);
  EXPECT_EQ(select.column_double(1), 2.5);
  EXPECT_EQ(select.column_text(2), std::string("héllo\0world", 11));
  EXPECT_EQ(select.column_blob(3), blob);
  EXPECT_EQ(select.column_text(4), "blob");
  EXPECT_EQ(std::get<std::string>(select.column_value(3)), "x'00abff'");
  EXPECT_FALSE(select.step());
}

TEST_F(statement_test, binds_by_name_and_null_and_optionals) {
  statement insert{db_, "INSERT INTO t(i, r, s) VALUES (:i, @r, $s)"};
  insert.bind(":i", 42);
  insert.bind("@r", std::optional<double>{});
  insert.bind("$s", "named");
  insert.execute();
  insert.bind(":i", nullptr);
  insert.bind("@r", std::optional<double>{1.25});
  insert.bind("$s", std::string("second"));
  insert.execute();

  statement select{db_, "SELECT i, r, s FROM t ORDER BY id"};
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.get<int>(0), 42);
  EXPECT_TRUE(select.column_is_null(1));
  EXPECT_EQ(select.get<std::optional<double>>(1), std::nullopt);
  EXPECT_EQ(select.get<std::string>(2), "named");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(select.column_value(1)));
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.get<std::optional<std::int64_t>>(0), std::nullopt);
  EXPECT_EQ(select.get<std::optional<double>>(1), 1.25);
  EXPECT_FALSE(select.step());
}

TEST_F(statement_test, bind_all_binds_in_order_and_bool_is_an_integer) {
  statement q{db_, "SELECT ?, ?, ?, ?"};
  q.bind_all(true, 3, "x", std::optional<std::string>{});
  ASSERT_TRUE(q.step());
  EXPECT_EQ(std::get<std::int64_t>(q.column_value(0)), 1);
  EXPECT_EQ(q.get<bool>(0), true);
  EXPECT_EQ(std::get<std::int64_t>(q.column_value(1)), 3);
  EXPECT_EQ(std::get<std::string>(q.column_value(2)), "x");
  EXPECT_TRUE(q.column_is_null(3));
  EXPECT_EQ(q.column_count(), 4);
}

TEST_F(statement_test, reset_reruns_with_kept_bindings_and_clear_bindings_nulls_them) {
  statement q{db_, "SELECT ?1 * 2"};
  q.bind(1, 21);
  ASSERT_TRUE(q.step());
  EXPECT_EQ(q.column_int64(0), 42);
  q.reset();
  ASSERT_TRUE(q.step());
  EXPECT_EQ(q.column_int64(0), 42);
  q.reset();
  q.clear_bindings();
  ASSERT_TRUE(q.step());
  EXPECT_TRUE(q.column_is_null(0));
}

TEST_F(statement_test, column_names_come_from_the_query) {
  statement q{db_, "SELECT 1 AS one, 'a' AS letter"};
  EXPECT_EQ(q.column_name(0), "one");
  EXPECT_EQ(q.column_name(1), "letter");
}

TEST_F(statement_test, a_syntax_error_carries_code_message_and_sql) {
  try {
    statement q{db_, "SELEC 1"};
    FAIL() << "prepared invalid SQL";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), SQLITE_ERROR);
    EXPECT_THAT(e.message(), HasSubstr("syntax error"));
    EXPECT_EQ(e.sql(), "SELEC 1");
    EXPECT_THAT(e.what(), HasSubstr("SELEC 1"));
    EXPECT_THAT(e.what(), HasSubstr("code 1"));
  }
}

TEST_F(statement_test, a_constraint_failure_carries_the_extended_code) {
  statement insert{db_, "INSERT INTO t(s) VALUES (?)"};
  insert.bind(1, "same");
  insert.execute();
  try {
    insert.execute();
    FAIL() << "inserted a duplicate";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), SQLITE_CONSTRAINT_UNIQUE);
    EXPECT_EQ(e.primary_code(), SQLITE_CONSTRAINT);
    EXPECT_THAT(e.message(), HasSubstr("UNIQUE constraint failed: t.s"));
    EXPECT_EQ(e.sql(), "INSERT INTO t(s) VALUES (?)");
  }
  // The statement is usable again after the failure.
  insert.bind(1, "other");
  EXPECT_NO_THROW(insert.execute());
}

TEST_F(statement_test, unknown_parameter_name_and_index_are_errors) {
  statement q{db_, "SELECT :a"};
  try {
    q.bind(":b", 1);
    FAIL() << "bound an unknown name";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), SQLITE_RANGE);
    EXPECT_THAT(e.what(), HasSubstr(":b"));
  }
  EXPECT_THROW(q.bind(2, 1), error);
}

TEST_F(statement_test, refuses_a_second_statement_but_allows_a_trailing_comment) {
  EXPECT_THROW(statement(db_, "SELECT 1; DELETE FROM t"), error);
  EXPECT_NO_THROW(statement(db_, "SELECT 1; -- the answer\n"));
  EXPECT_THROW(statement(db_, "   "), error);
}

TEST_F(statement_test, read_only_tells_reads_from_writes) {
  EXPECT_TRUE(statement(db_, "SELECT * FROM t").read_only());
  EXPECT_FALSE(statement(db_, "DELETE FROM t").read_only());
}

}  // namespace
}  // namespace abtest::db
