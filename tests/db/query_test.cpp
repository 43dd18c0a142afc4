// Tests of db::read_only_query: rows and types come back; every kind of write is refused.
#include "db/query.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "db/error.hpp"
#include "db/results_store.hpp"
#include "db/statement.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using ::testing::HasSubstr;
using testing::make_experiment;
using testing::make_machine;
using testing::make_sample;
using testing::temp_dir;

class query_test : public ::testing::Test {
 protected:
  query_test() {
    results_store store{path()};
    const auto machine = store.upsert_machine(make_machine("fp"));
    store.create_experiment(make_experiment("r-1", machine));
    store.insert_sample(make_sample("r-1", machine, 0, 0));
  }
  std::filesystem::path path() const { return dir_ / "results.db"; }

  /// Runs `sql`, expecting it to be refused; returns the error text.
  std::string refused(const std::string& sql) {
    try {
      read_only_query(path(), sql);
    } catch (const error& e) {
      EXPECT_EQ(e.code(), SQLITE_AUTH) << sql << ": " << e.what();
      EXPECT_THAT(e.what(), HasSubstr("query refused"));
      return e.what();
    }
    ADD_FAILURE() << "not refused: " << sql;
    return {};
  }

  temp_dir dir_;
};

TEST_F(query_test, returns_columns_and_typed_values) {
  auto result = read_only_query(path(), "SELECT 1 AS i, 2.5 AS r, 'x' AS t, NULL AS n, x'0aff' AS b");
  EXPECT_EQ(result.columns, (std::vector<std::string>{"i", "r", "t", "n", "b"}));
  ASSERT_EQ(result.rows.size(), 1u);
  const auto& row = result.rows[0];
  EXPECT_EQ(std::get<std::int64_t>(row[0]), 1);
  EXPECT_EQ(std::get<double>(row[1]), 2.5);
  EXPECT_EQ(std::get<std::string>(row[2]), "x");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(row[3]));
  EXPECT_EQ(std::get<std::string>(row[4]), "x'0aff'");
}

TEST_F(query_test, reads_tables_views_and_recursive_ctes) {
  auto metrics = read_only_query(path(), "SELECT metric, value FROM v_sample_metric ORDER BY metric");
  ASSERT_EQ(metrics.rows.size(), 2u);
  EXPECT_EQ(std::get<std::string>(metrics.rows[0][0]), "proof.synthesis_s");
  auto counted = read_only_query(path(), "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5) "
                                         "SELECT count(*) FROM c");
  EXPECT_EQ(std::get<std::int64_t>(counted.rows.at(0).at(0)), 5);
}

TEST_F(query_test, allows_read_only_pragmas) {
  EXPECT_FALSE(read_only_query(path(), "PRAGMA table_info(sample)").rows.empty());
  EXPECT_EQ(read_only_query(path(), "PRAGMA user_version").rows.size(), 1u);
  EXPECT_NO_THROW(read_only_query(path(), "PRAGMA integrity_check"));
}

TEST_F(query_test, refuses_every_write) {
  EXPECT_THAT(refused("INSERT INTO machine(fingerprint, hostname, cpu_model) VALUES ('x', 'y', 'z')"),
              HasSubstr("INSERT into machine"));
  EXPECT_THAT(refused("UPDATE sample SET round = 9"), HasSubstr("UPDATE of sample"));
  EXPECT_THAT(refused("DELETE FROM metric"), HasSubstr("DELETE from metric"));
  EXPECT_THAT(refused("DROP TABLE metric"), HasSubstr("DROP TABLE"));
  refused("DROP VIEW v_sample_metric");
  EXPECT_THAT(refused("CREATE TABLE evil(x)"), HasSubstr("CREATE TABLE"));
  refused("CREATE TEMP TABLE scratch(x)");
  refused("ALTER TABLE sample ADD COLUMN evil");
  refused("REPLACE INTO reference(label, metric, value) VALUES ('a', 'b', 1)");
  refused("VACUUM");
  refused("REINDEX");
  refused("ANALYZE");
  refused("BEGIN");
  EXPECT_THAT(refused("SELECT load_extension('/tmp/evil.so')"), HasSubstr("load_extension()"));
}

TEST_F(query_test, refuses_attach_detach_and_writing_pragmas) {
  EXPECT_THAT(refused("ATTACH DATABASE '" + (dir_ / "other.db").string() + "' AS other"), HasSubstr("ATTACH"));
  EXPECT_THAT(refused("DETACH DATABASE main"), HasSubstr("DETACH"));
  EXPECT_THAT(refused("PRAGMA writable_schema = 1"), HasSubstr("PRAGMA writable_schema = 1"));
  refused("PRAGMA writable_schema");
  refused("PRAGMA query_only = 0");
  refused("PRAGMA journal_mode = DELETE");
  refused("PRAGMA user_version = 99");
  refused("PRAGMA application_id = 1");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "other.db"));
}

TEST_F(query_test, refuses_a_write_smuggled_after_a_read) {
  EXPECT_THROW(read_only_query(path(), "SELECT 1; DELETE FROM metric"), error);
}

TEST_F(query_test, the_file_is_unchanged_after_refused_statements) {
  for (const char* sql : {"DELETE FROM metric", "DROP TABLE metric", "PRAGMA user_version = 99"}) {
    EXPECT_THROW(read_only_query(path(), sql), error);
  }
  results_store store{path(), open_mode::read_only};
  EXPECT_EQ(store.list_samples("r-1").at(0).metrics.size(), 2u);
}

TEST_F(query_test, a_syntax_error_is_reported_as_such) {
  try {
    read_only_query(path(), "SELEC 1");
    FAIL() << "ran invalid SQL";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), SQLITE_ERROR);
    EXPECT_THAT(e.what(), HasSubstr("syntax error"));
  }
}

}  // namespace
}  // namespace abtest::db
