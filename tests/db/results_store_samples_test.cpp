// Tests of samples in db::results_store: whole-sample writes, resume keys, concurrent writers,
// and a writer killed mid-transaction.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>

#include "db/error.hpp"
#include "db/maintenance.hpp"
#include "db/results_store.hpp"
#include "db/statement.hpp"
#include "db_test_support.hpp"

namespace abtest::db {
namespace {

using testing::at;
using testing::make_build;
using testing::make_experiment;
using testing::make_machine;
using testing::make_sample;
using testing::temp_dir;

class samples_test : public ::testing::Test {
 protected:
  samples_test() : store_(std::in_place, dir_ / "results.db") {
    machine_ = store_->upsert_machine(make_machine("fp"));
    store_->create_experiment(make_experiment("r-1", machine_));
  }

  std::int64_t count(const std::string& table) {
    statement q{store_->connection(), "SELECT count(*) FROM " + table};
    q.step();
    return q.column_int64(0);
  }

  /// Forks with no connection open in this process: SQLite's lock bookkeeping must not be
  /// inherited by a child that opens the same file (https://sqlite.org/howtocorrupt.html §2.6).
  pid_t fork_without_connection() {
    store_.reset();
    const pid_t pid = fork();
    if (pid != 0) store_.emplace(dir_ / "results.db");
    return pid;
  }

  temp_dir dir_;
  std::optional<results_store> store_;
  std::int64_t machine_ = 0;
};

TEST_F(samples_test, a_sample_round_trips_with_all_its_fields_and_metrics) {
  sample s = make_sample("r-1", machine_, 1, 3);
  s.warmup = true;
  s.binary_hash = "bb22";
  s.status = sample_status::crashed;
  s.exit_code.reset();
  s.signal = 11;
  s.error = "SIGSEGV";
  s.context = {{"governor", "performance"}};
  const auto id = store_->insert_sample(s);

  auto samples = store_->list_samples("r-1");
  ASSERT_EQ(samples.size(), 1u);
  const sample& r = samples[0];
  EXPECT_EQ(r.id, id);
  EXPECT_EQ(r.uuid.size(), 36u);
  EXPECT_EQ(r.experiment_id, "r-1");
  EXPECT_EQ(r.arm, 1);
  EXPECT_EQ(r.benchmark, "proof");
  EXPECT_EQ(r.round, 3);
  EXPECT_EQ(r.position, 1);
  EXPECT_TRUE(r.warmup);
  EXPECT_EQ(r.machine_id, machine_);
  EXPECT_EQ(r.build_id, std::nullopt);
  EXPECT_EQ(r.binary_hash, "bb22");
  EXPECT_EQ(r.started_at, s.started_at);
  EXPECT_EQ(r.duration_s, 1.6);
  EXPECT_EQ(r.load_avg, 0.25);
  EXPECT_EQ(r.status, sample_status::crashed);
  EXPECT_EQ(r.exit_code, std::nullopt);
  EXPECT_EQ(r.signal, 11);
  EXPECT_EQ(r.error, "SIGSEGV");
  EXPECT_EQ(r.backend, "cpu");
  EXPECT_EQ(r.checks, s.checks);
  EXPECT_EQ(r.context, s.context);
  EXPECT_EQ(r.metrics, s.metrics);
}

// The one sample type from the executor to the store: every member set — the slot, what the process
// produced as exec::run_benchmark fills it, where it ran as the experiment records it — written to a
// real file and read back equal under sample's defaulted operator==, so a member the store forgets
// to write or to read fails here. A new member of abtest::sample: set it here too.
TEST_F(samples_test, a_sample_with_every_member_set_reads_back_equal) {
  sample s;
  s.arm = 1;
  s.benchmark = "proof";
  s.round = 4;
  s.warmup = true;
  s.position = 1;
  s.status = sample_status::bad_output;
  s.exit_code = 3;
  s.signal = 9;  // never both from one process; here to prove both columns
  s.error = "proof printed no JSON object — print one line of JSON, or set the benchmark's format";
  s.metrics = {{"proof.total_s", 1.25}, {"proof.wall_s", 0.1 + 0.2}, {"proof.maxrss_mib", 512.5}, {"proof.nvcsw", 17}};
  s.checks = {{"verified", "true"}, {"digest", "9f2c"}};
  s.backend = "cuda";
  s.context = {{"abtest_process", {{"argv", {"bin/porep-bench", "--json"}}, {"pin", "3"}, {"stdout_bytes", 812},
                                   {"stdout_truncated", false}}},
               {"duet", {{"cpu", 3}, {"overlap_s", 1.0 / 3.0}}}};
  s.started_at = at(7);  // the store keeps milliseconds
  s.duration_s = 1.0 / 7.0;
  s.uuid = "0b8e6f3a-2c1d-4e5f-8a9b-0c1d2e3f4a5b";
  s.experiment_id = "r-1";
  s.machine_id = machine_;
  s.build_id = store_->insert_build(make_build(machine_));
  s.binary_hash = "bb22";
  s.load_avg = 0.75;
  s.id = store_->insert_sample(s);

  const auto back = store_->list_samples("r-1");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0] == s) << "a member of abtest::sample did not survive the store: "
                            << "compare harness/sample/sample.hpp with db/results_store_samples.cpp";
}

// What an older or foreign writer stored as a JSON check value other than a string reads as its text.
TEST_F(samples_test, a_check_stored_as_another_json_type_reads_as_its_text) {
  store_->insert_sample(make_sample("r-1", machine_, 0, 0));
  store_->connection().exec(R"(UPDATE sample SET checks = '{"verified": true, "digest": "9f2c", "n": 3}')");
  const auto back = store_->list_samples("r-1");
  ASSERT_EQ(back.size(), 1u);
  const std::map<std::string, std::string> expected{{"verified", "true"}, {"digest", "9f2c"}, {"n", "3"}};
  EXPECT_EQ(back[0].checks, expected);
}

TEST_F(samples_test, a_resumed_run_cannot_duplicate_a_sample) {
  store_->insert_sample(make_sample("r-1", machine_, 0, 0));
  try {
    store_->insert_sample(make_sample("r-1", machine_, 0, 0, {{"proof.total_s", 9.0}}));
    FAIL() << "stored the same (arm, benchmark, round, warmup) twice";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), SQLITE_CONSTRAINT_UNIQUE);
  }
  auto warmup = make_sample("r-1", machine_, 0, 0);
  warmup.warmup = true;
  EXPECT_NO_THROW(store_->insert_sample(warmup));  // the warm-up of that round is another key
  EXPECT_EQ(count("sample"), 2);
  EXPECT_EQ(count("metric"), 4);
}

TEST_F(samples_test, sample_keys_lists_what_a_resume_skips) {
  store_->insert_sample(make_sample("r-1", machine_, 0, 0));
  store_->insert_sample(make_sample("r-1", machine_, 1, 0));
  auto warmup = make_sample("r-1", machine_, 1, 0);
  warmup.warmup = true;
  store_->insert_sample(warmup);
  const std::set<sample_key> expected{{0, "proof", 0, false}, {1, "proof", 0, false}, {1, "proof", 0, true}};
  EXPECT_EQ(store_->sample_keys("r-1"), expected);
  EXPECT_TRUE(store_->sample_keys("r-other").empty());
}

TEST_F(samples_test, a_non_finite_metric_stores_nothing) {
  auto s = make_sample("r-1", machine_, 0, 0, {{"proof.total_s", 1.0}, {"proof.msm_s", std::nan("")}});
  EXPECT_THROW(store_->insert_sample(s), std::invalid_argument);
  s.metrics = {{"proof.total_s", std::numeric_limits<double>::infinity()}};
  EXPECT_THROW(store_->insert_sample(s), std::invalid_argument);
  EXPECT_EQ(count("sample"), 0);
  EXPECT_EQ(count("metric"), 0);
}

TEST_F(samples_test, a_batch_is_stored_whole_or_not_at_all) {
  std::vector<sample> batch{make_sample("r-1", machine_, 0, 0), make_sample("r-1", machine_, 1, 0),
                            make_sample("r-1", machine_, 0, 0)};  // the third repeats the first key
  EXPECT_THROW(store_->insert_samples(batch), error);
  EXPECT_EQ(count("sample"), 0);
  EXPECT_EQ(count("metric"), 0);
  batch.pop_back();
  auto ids = store_->insert_samples(batch);
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_LT(ids[0], ids[1]);
  EXPECT_EQ(store_->list_samples("r-1").size(), 2u);
}

TEST_F(samples_test, a_sample_of_an_unknown_arm_or_machine_is_refused) {
  try {
    store_->insert_sample(make_sample("r-1", machine_, 5, 0));
    FAIL() << "stored a sample of arm 5";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), SQLITE_CONSTRAINT_FOREIGNKEY);
  }
  EXPECT_THROW(store_->insert_sample(make_sample("r-none", machine_, 0, 0)), error);
  EXPECT_THROW(store_->insert_sample(make_sample("r-1", machine_ + 10, 0, 0)), error);
  EXPECT_EQ(count("sample"), 0);
}

constexpr int rounds_per_writer = 60;

/// Writes rounds [first, first + rounds_per_writer) of arm `arm` through its own connection.
void write_rounds(const std::filesystem::path& path, std::int64_t machine, int arm, int first) {
  results_store store{path};
  for (int round = first; round < first + rounds_per_writer; ++round)
    store.insert_sample(make_sample("r-1", machine, arm, round));
}

TEST_F(samples_test, two_writer_threads_never_see_busy_and_lose_nothing) {
  std::exception_ptr failures[2];
  std::thread writers[2];
  for (int w = 0; w < 2; ++w)
    writers[w] = std::thread([&, w] {
      try {
        write_rounds(dir_ / "results.db", machine_, w, 0);
      } catch (...) {
        failures[w] = std::current_exception();
      }
    });
  for (auto& t : writers) t.join();
  for (auto& failure : failures)
    if (failure) {
      try {
        std::rethrow_exception(failure);
      } catch (const std::exception& e) {
        FAIL() << "writer failed: " << e.what();
      }
    }
  EXPECT_EQ(count("sample"), 2 * rounds_per_writer);
  EXPECT_EQ(count("metric"), 2 * 2 * rounds_per_writer);
}

TEST_F(samples_test, two_writer_processes_never_see_busy_and_lose_nothing) {
  pid_t children[2];
  for (int w = 0; w < 2; ++w) {
    children[w] = fork_without_connection();
    ASSERT_GE(children[w], 0);
    if (children[w] == 0) {
      int status = 0;
      try {
        write_rounds(dir_ / "results.db", machine_, w, 1000);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "writer %d failed: %s\n", w, e.what());
        status = 1;
      }
      _exit(status);
    }
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer process failed (see stderr)";
  }
  EXPECT_EQ(count("sample"), 2 * rounds_per_writer);
}

TEST_F(samples_test, a_writer_killed_mid_transaction_leaves_only_whole_samples) {
  // The child writes batches of samples with many metrics in a loop, so it spends nearly all of
  // its time inside a transaction; SIGKILL gives it no chance to clean up.
  constexpr int metrics_per_sample = 40;
  constexpr int samples_per_batch = 25;
  std::map<std::string, double> metrics;
  for (int m = 0; m < metrics_per_sample; ++m) metrics["proof.m" + std::to_string(m) + "_s"] = m + 0.5;

  const pid_t child = fork_without_connection();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      results_store store{dir_ / "results.db"};
      for (int batch = 0;; ++batch) {
        std::vector<sample> samples;
        for (int i = 0; i < samples_per_batch; ++i)
          samples.push_back(make_sample("r-1", machine_, 0, batch * samples_per_batch + i, metrics));
        store.insert_samples(samples);
      }
    } catch (...) {
      _exit(1);
    }
  }
  // Let it commit a few batches first, then kill it wherever it is.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (count("sample") < 3 * samples_per_batch && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(7));
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer exited on its own (status " << status << ")";

  const check_report report = check(dir_ / "results.db");
  EXPECT_TRUE(report.ok());
  for (const auto& problem : report.integrity_problems) ADD_FAILURE() << problem;

  results_store reopened{dir_ / "results.db"};
  auto samples = reopened.list_samples("r-1");
  EXPECT_GE(samples.size(), 3u * samples_per_batch);
  EXPECT_EQ(samples.size() % samples_per_batch, 0u) << "a batch was partly stored";
  for (const auto& s : samples) EXPECT_EQ(s.metrics.size(), std::size_t{metrics_per_sample}) << "round " << s.round;
  // And the file takes new writes.
  EXPECT_NO_THROW(reopened.insert_sample(make_sample("r-1", machine_, 1, 0)));
}

}  // namespace
}  // namespace abtest::db
