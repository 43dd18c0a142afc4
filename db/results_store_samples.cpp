// db::results_store: samples with their metrics — written whole, read back for analysis and resume.
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <stdexcept>

#include "db/ids.hpp"
#include "db/results_store.hpp"
#include "db/statement.hpp"
#include "db/store_codec.hpp"
#include "db/transaction.hpp"

namespace abtest::db {

using namespace codec;

namespace {

/// Empty text is stored as NULL (error, backend: "none").
std::optional<std::string> null_if_empty(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return text;
}

/// Checks are written as strings; a value of another JSON type (an older or foreign writer) reads as its JSON text.
std::map<std::string, std::string> checks_at(const statement& q, int column) {
  const nlohmann::json stored = json_at(q, column);
  std::map<std::string, std::string> checks;
  for (const auto& [k, v] : stored.items()) checks[k] = v.is_string() ? v.get<std::string>() : v.dump();
  return checks;
}

/// One row of list_samples' SELECT, without its metrics (they come from the metric table).
sample read_sample(const statement& q) {
  sample s;
  s.id = q.column_int64(0);
  s.uuid = q.column_text(1);
  s.experiment_id = q.column_text(2);
  s.arm = q.get<int>(3);
  s.benchmark = q.column_text(4);
  s.round = q.get<int>(5);
  s.position = q.get<int>(6);
  s.warmup = q.get<bool>(7);
  s.machine_id = q.column_int64(8);
  s.build_id = q.get<std::optional<std::int64_t>>(9);
  s.binary_hash = q.get<std::optional<std::string>>(10);
  s.started_at = time_at(q, 11);
  s.duration_s = q.get<std::optional<double>>(12);
  s.load_avg = q.get<std::optional<double>>(13);
  s.status = enum_at<sample_status>(q, 14);
  s.exit_code = q.get<std::optional<int>>(15);
  s.signal = q.get<std::optional<int>>(16);
  s.error = q.get<std::optional<std::string>>(17).value_or("");
  s.backend = q.get<std::optional<std::string>>(18).value_or("");
  s.checks = checks_at(q, 19);
  s.context = json_at(q, 20);
  return s;
}

/// The two statements one sample needs, prepared once per batch.
struct sample_writer {
  explicit sample_writer(database& db)
      : db_(db),
        sample_(db,
                "INSERT INTO sample(uuid, experiment_id, arm_idx, benchmark, round, position, warmup, machine_id, "
                "build_id, binary_hash, started_at, duration_s, load_avg, status, exit_code, signal, error, backend, "
                "checks, context) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        metric_(db, "INSERT INTO metric(sample_id, name, value) VALUES (?, ?, ?)") {}

  std::int64_t write(const sample& s) {
    for (const auto& [name, value] : s.metrics)
      if (!std::isfinite(value))
        throw std::invalid_argument("metric " + name + " of sample " + s.benchmark + " round " +
                                    std::to_string(s.round) + " is not finite — record it as absent instead");
    sample_.bind_all(s.uuid.empty() ? new_uuid() : s.uuid, s.experiment_id, s.arm, s.benchmark, s.round, s.position,
                     s.warmup, s.machine_id, s.build_id, s.binary_hash, format_utc(s.started_at), s.duration_s,
                     s.load_avg, to_string(s.status), s.exit_code, s.signal, null_if_empty(s.error),
                     null_if_empty(s.backend), json_text(nlohmann::json(s.checks)), json_text(s.context));
    sample_.execute();
    const std::int64_t id = db_.last_insert_rowid();
    for (const auto& [name, value] : s.metrics) {
      metric_.bind_all(id, name, value);
      metric_.execute();
    }
    return id;
  }

 private:
  database& db_;
  statement sample_;
  statement metric_;
};

}  // namespace

std::int64_t results_store::insert_sample(const sample& s) {
  return insert_samples(std::span(&s, 1)).front();
}

std::vector<std::int64_t> results_store::insert_samples(std::span<const sample> samples) {
  transaction tx{db_};
  sample_writer writer{db_};
  std::vector<std::int64_t> ids;
  ids.reserve(samples.size());
  for (const sample& s : samples) ids.push_back(writer.write(s));
  tx.commit();
  return ids;
}

std::vector<sample> results_store::list_samples(std::string_view experiment_id) {
  std::vector<sample> samples = select_rows(
      db_,
      "SELECT id, uuid, experiment_id, arm_idx, benchmark, round, position, warmup, machine_id, build_id, "
      "binary_hash, started_at, duration_s, load_avg, status, exit_code, signal, error, backend, checks, "
      "context FROM sample WHERE experiment_id = ? ORDER BY id",
      read_sample, experiment_id);
  std::map<std::int64_t, std::size_t> index_of;
  for (std::size_t i = 0; i < samples.size(); ++i) index_of.emplace(samples[i].id, i);
  statement m{db_,
              "SELECT m.sample_id, m.name, m.value FROM metric m JOIN sample s ON s.id = m.sample_id "
              "WHERE s.experiment_id = ?"};
  m.bind(1, experiment_id);
  while (m.step()) samples[index_of.at(m.column_int64(0))].metrics.emplace(m.column_text(1), m.column_double(2));
  return samples;
}

std::set<sample_key> results_store::sample_keys(std::string_view experiment_id) {
  statement q{db_, "SELECT arm_idx, benchmark, round, warmup FROM sample WHERE experiment_id = ?"};
  q.bind(1, experiment_id);
  std::set<sample_key> keys;
  while (q.step()) keys.insert({q.get<int>(0), q.column_text(1), q.get<int>(2), q.get<bool>(3)});
  return keys;
}

}  // namespace abtest::db
