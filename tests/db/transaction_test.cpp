// Tests of db::transaction: commit, rollback by destructor and exception, savepoints, busy waits.
#include "db/transaction.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <stdexcept>
#include <thread>

#include "db/database.hpp"
#include "db/error.hpp"
#include "db/statement.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using testing::temp_dir;

class transaction_test : public ::testing::Test {
 protected:
  transaction_test() : db_(dir_ / "results.db") { db_.exec("CREATE TABLE t(x INTEGER)"); }

  std::int64_t rows() {
    statement q{db_, "SELECT count(*) FROM t"};
    q.step();
    return q.column_int64(0);
  }

  temp_dir dir_;
  database db_;
};

TEST_F(transaction_test, commit_keeps_the_writes) {
  {
    transaction tx{db_};
    EXPECT_TRUE(db_.in_transaction());
    db_.exec("INSERT INTO t VALUES (1)");
    tx.commit();
  }
  EXPECT_FALSE(db_.in_transaction());
  EXPECT_EQ(rows(), 1);
}

TEST_F(transaction_test, destructor_rolls_back_without_commit) {
  {
    transaction tx{db_};
    db_.exec("INSERT INTO t VALUES (1)");
  }
  EXPECT_FALSE(db_.in_transaction());
  EXPECT_EQ(rows(), 0);
}

TEST_F(transaction_test, an_exception_rolls_back) {
  EXPECT_THROW(
      {
        transaction tx{db_};
        db_.exec("INSERT INTO t VALUES (1)");
        throw std::runtime_error("benchmark crashed");
      },
      std::runtime_error);
  EXPECT_EQ(rows(), 0);
}

TEST_F(transaction_test, explicit_rollback_then_destructor_is_a_no_op) {
  transaction tx{db_};
  db_.exec("INSERT INTO t VALUES (1)");
  tx.rollback();
  EXPECT_FALSE(db_.in_transaction());
  EXPECT_EQ(rows(), 0);
}

TEST_F(transaction_test, nested_transaction_is_a_savepoint) {
  transaction outer{db_};
  db_.exec("INSERT INTO t VALUES (1)");
  {
    transaction inner{db_};
    db_.exec("INSERT INTO t VALUES (2)");
  }  // inner rolled back: only its write is undone
  EXPECT_TRUE(db_.in_transaction());
  EXPECT_EQ(rows(), 1);
  {
    transaction inner{db_};
    db_.exec("INSERT INTO t VALUES (3)");
    inner.commit();
  }
  outer.commit();
  EXPECT_EQ(rows(), 2);
}

TEST_F(transaction_test, outer_rollback_undoes_a_committed_savepoint) {
  {
    transaction outer{db_};
    transaction inner{db_};
    db_.exec("INSERT INTO t VALUES (1)");
    inner.commit();
  }
  EXPECT_EQ(rows(), 0);
}

TEST_F(transaction_test, begin_waits_for_another_writer_instead_of_failing) {
  // A second connection holds the write lock for a while; BEGIN IMMEDIATE on ours must wait it
  // out (busy timeout and backoff), not surface SQLITE_BUSY.
  database other{dir_ / "results.db"};
  transaction held{other};
  other.exec("INSERT INTO t VALUES (1)");
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    held.commit();
  });
  {
    transaction tx{db_};
    db_.exec("INSERT INTO t VALUES (2)");
    tx.commit();
  }
  release.join();
  EXPECT_EQ(rows(), 2);
}

TEST_F(transaction_test, busy_is_reported_once_the_timeout_has_passed) {
  database impatient{dir_ / "results.db", open_mode::read_write, {std::chrono::milliseconds(50)}};
  transaction held{db_};
  db_.exec("INSERT INTO t VALUES (1)");
  try {
    transaction tx{impatient};
    FAIL() << "took the write lock while another connection held it";
  } catch (const error& e) {
    EXPECT_EQ(e.primary_code(), SQLITE_BUSY);
    EXPECT_EQ(e.sql(), "BEGIN IMMEDIATE");
  }
  EXPECT_FALSE(impatient.in_transaction());
}

}  // namespace
}  // namespace abtest::db
