// tests/db support: a temporary folder per test, and small valid records to store.
#pragma once

#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "db/records.hpp"
#include "db/results_store.hpp"

namespace abtest::db::testing {

/// A fresh folder under $TMPDIR, removed with everything in it when the object goes away.
class temp_dir {
 public:
  temp_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "abtest-db-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) std::abort();
    path_ = pattern;
  }
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// Creates an SQLite file with the raw API, as another application would.
inline void make_foreign_file(const std::filesystem::path& path, const char* sql) {
  sqlite3* raw = nullptr;
  if (sqlite3_open(path.c_str(), &raw) != SQLITE_OK || sqlite3_exec(raw, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
    std::abort();
  sqlite3_close(raw);
}

/// A fixed instant, so records compare equal after a round trip (the store keeps milliseconds).
inline time_point at(int seconds_after) {
  return time_point{std::chrono::seconds(1'796'000'000 + seconds_after)} + std::chrono::milliseconds(250);
}

inline machine_record make_machine(std::string fingerprint) {
  machine_record m;
  m.fingerprint = std::move(fingerprint);
  m.hostname = "bench-01";
  m.cpu_model = "TR PRO 7995WX";
  m.cores = 96;
  m.memory_mib = 262144;
  m.gpu = "RTX 5070 Ti";
  m.details = {{"governor", "performance"}};
  return m;
}

/// A build of "A1=4+B1" on `machine_id` with one binary.
inline build_record make_build(std::int64_t machine_id) {
  build_record b;
  b.variant = "A1=4+B1";
  b.source_dir = "/src";
  b.build_dir = "/build";
  b.started_at = at(0);
  b.machine_id = machine_id;
  b.binaries = {{"porep-bench", "bin/porep-bench", "ff"}};
  return b;
}

/// A run experiment with a baseline arm 0 ("base") and a candidate arm 1 ("A1=4+B1").
inline experiment_record make_experiment(std::string id, std::int64_t machine_id, int started = 0) {
  experiment_record e;
  e.id = std::move(id);
  e.kind = experiment_kind::run;
  e.command_line = "abtest run --toggle A1 --toggle B1";
  e.project = "porep-c2-model";
  e.config = {{"rounds", 10}, {"benchmarks", {"synth", "proof"}}};
  e.seed = 7;
  e.started_at = at(started);
  e.machine_id = machine_id;
  e.arms = {{0, "base", {{"A1", "0"}, {"B1", "OFF"}}, std::nullopt, arm_role::baseline},
            {1, "A1=4+B1", {{"A1", "4"}, {"B1", "ON"}}, std::nullopt, arm_role::candidate}};
  return e;
}

inline sample make_sample(const std::string& experiment_id, std::int64_t machine_id, int arm_idx, int round,
                                 std::map<std::string, double> metrics = {{"proof.total_s", 1.5},
                                                                          {"proof.synthesis_s", 0.9}}) {
  sample s;
  s.experiment_id = experiment_id;
  s.arm = arm_idx;
  s.benchmark = "proof";
  s.round = round;
  s.position = arm_idx;
  s.machine_id = machine_id;
  s.started_at = at(100 + round);
  s.duration_s = 1.6;
  s.load_avg = 0.25;
  s.exit_code = 0;
  s.backend = "cpu";
  s.checks = {{"verified", "true"}, {"digest", "9f2c"}};
  s.metrics = std::move(metrics);
  return s;
}

}  // namespace abtest::db::testing
