// db::results_store: opening the store, and its machines, builds and experiments.
#include "db/results_store.hpp"

#include <sqlite3.h>

#include "db/error.hpp"
#include "db/ids.hpp"
#include "db/migrations.hpp"
#include "db/statement.hpp"
#include "db/store_codec.hpp"
#include "db/transaction.hpp"

namespace abtest::db {

using namespace codec;

results_store::results_store(const std::filesystem::path& path, open_mode mode, open_options options)
    : db_(path, mode, options) {
  if (mode == open_mode::read_only) require_latest_schema(db_);
  else migrate(db_);
}

std::optional<std::int64_t> results_store::find_id_by_uuid(std::string_view table, std::string_view uuid) {
  // `table` is one of our own names (build, sample), never user input.
  statement q{db_, "SELECT id FROM " + std::string(table) + " WHERE uuid = ?"};
  q.bind(1, uuid);
  if (!q.step()) return std::nullopt;
  return q.column_int64(0);
}

// --- machines --------------------------------------------------------------------------------

namespace {

constexpr std::string_view machine_columns =
    "id, fingerprint, hostname, cpu_model, cores, memory_mib, gpu, os, compiler, details";

machine_record read_machine(const statement& q) {
  return {q.column_int64(0),
          q.column_text(1),
          q.column_text(2),
          q.column_text(3),
          q.get<std::optional<std::int64_t>>(4),
          q.get<std::optional<std::int64_t>>(5),
          q.get<std::optional<std::string>>(6),
          q.get<std::optional<std::string>>(7),
          q.get<std::optional<std::string>>(8),
          json_at(q, 9)};
}

}  // namespace

std::int64_t results_store::upsert_machine(const machine_record& m) {
  transaction tx{db_};
  statement q{db_,
              "INSERT INTO machine(fingerprint, hostname, cpu_model, cores, memory_mib, gpu, os, compiler, details) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
              "ON CONFLICT(fingerprint) DO UPDATE SET hostname = excluded.hostname, cpu_model = excluded.cpu_model, "
              "cores = excluded.cores, memory_mib = excluded.memory_mib, gpu = excluded.gpu, os = excluded.os, "
              "compiler = excluded.compiler, details = excluded.details "
              "RETURNING id"};
  q.bind_all(m.fingerprint, m.hostname, m.cpu_model, m.cores, m.memory_mib, m.gpu, m.os, m.compiler,
             json_text(m.details));
  q.step();
  const std::int64_t id = q.column_int64(0);
  q.reset();
  tx.commit();
  return id;
}

std::vector<machine_record> results_store::list_machines() {
  statement q{db_, "SELECT " + std::string(machine_columns) + " FROM machine ORDER BY id"};
  std::vector<machine_record> machines;
  while (q.step()) machines.push_back(read_machine(q));
  return machines;
}

// --- builds ----------------------------------------------------------------------------------

namespace {

constexpr std::string_view build_columns =
    "id, uuid, variant, levels, source_dir, commit_sha, dirty, compiler, flags, build_dir, started_at, duration_s, "
    "status, log_path, log_tail, machine_id, objects_compiled, cache_hits, cache_misses, links, details";

build_record read_build(const statement& q) {
  build_record b;
  b.id = q.column_int64(0);
  b.uuid = q.column_text(1);
  b.variant = q.column_text(2);
  b.levels = levels_at(q, 3);
  b.source_dir = q.column_text(4);
  b.commit_sha = q.get<std::optional<std::string>>(5);
  b.dirty = q.get<bool>(6);
  b.compiler = q.get<std::optional<std::string>>(7);
  b.flags = q.get<std::optional<std::string>>(8);
  b.build_dir = q.column_text(9);
  b.started_at = time_at(q, 10);
  b.duration_s = q.get<std::optional<double>>(11);
  b.status = enum_at<build_status>(q, 12);
  b.log_path = q.get<std::optional<std::string>>(13);
  b.log_tail = q.get<std::optional<std::string>>(14);
  b.machine_id = q.get<std::optional<std::int64_t>>(15);
  b.objects_compiled = q.get<std::optional<std::int64_t>>(16);
  b.cache_hits = q.get<std::optional<std::int64_t>>(17);
  b.cache_misses = q.get<std::optional<std::int64_t>>(18);
  b.links = q.get<std::optional<std::int64_t>>(19);
  if (const auto d = q.get<std::optional<std::string>>(20)) b.details = nlohmann::json::parse(*d);
  return b;
}

}  // namespace

std::int64_t results_store::insert_build(const build_record& b) {
  transaction tx{db_};
  statement q{db_,
              "INSERT INTO build(uuid, variant, levels, source_dir, commit_sha, dirty, compiler, flags, build_dir, "
              "started_at, duration_s, status, log_path, log_tail, machine_id, objects_compiled, cache_hits, "
              "cache_misses, links, details) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"};
  q.bind_all(b.uuid.empty() ? new_uuid() : b.uuid, b.variant, levels_text(b.levels), b.source_dir, b.commit_sha,
             b.dirty, b.compiler, b.flags, b.build_dir, format_utc(b.started_at), b.duration_s, to_string(b.status),
             b.log_path, b.log_tail, b.machine_id, b.objects_compiled, b.cache_hits, b.cache_misses, b.links,
             json_text(b.details));
  q.execute();
  const std::int64_t id = db_.last_insert_rowid();
  statement binary{db_, "INSERT INTO build_binary(build_id, target, path, sha256) VALUES (?, ?, ?, ?)"};
  for (const build_binary& bin : b.binaries) {
    binary.bind_all(id, bin.target, bin.path, bin.sha256);
    binary.execute();
  }
  tx.commit();
  return id;
}

std::vector<build_binary> results_store::list_binaries(std::int64_t build_id) {
  statement q{db_, "SELECT target, path, sha256 FROM build_binary WHERE build_id = ? ORDER BY target"};
  q.bind(1, build_id);
  std::vector<build_binary> binaries;
  while (q.step()) binaries.push_back({q.column_text(0), q.column_text(1), q.column_text(2)});
  return binaries;
}

std::optional<build_record> results_store::find_build(std::int64_t id) {
  statement q{db_, "SELECT " + std::string(build_columns) + " FROM build WHERE id = ?"};
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  build_record b = read_build(q);
  b.binaries = list_binaries(b.id);
  return b;
}

std::optional<build_record> results_store::latest_ok_build(std::string_view variant,
                                                           const std::optional<std::string>& commit_sha) {
  statement q{db_, "SELECT " + std::string(build_columns) +
                       " FROM build WHERE variant = ? AND commit_sha IS ? AND status = 'ok' AND dirty = 0 "
                       "ORDER BY started_at DESC, id DESC LIMIT 1"};
  q.bind_all(variant, commit_sha);
  if (!q.step()) return std::nullopt;
  build_record b = read_build(q);
  b.binaries = list_binaries(b.id);
  return b;
}

std::vector<build_record> results_store::list_builds() {
  statement q{db_, "SELECT " + std::string(build_columns) + " FROM build ORDER BY id"};
  std::vector<build_record> builds;
  while (q.step()) builds.push_back(read_build(q));
  for (build_record& b : builds) b.binaries = list_binaries(b.id);
  return builds;
}

// --- experiments -----------------------------------------------------------------------------

namespace {

constexpr std::string_view experiment_columns =
    "id, uuid, kind, command_line, manifest_path, project, config, seed, status, started_at, finished_at, machine_id";

experiment_record read_experiment(const statement& q) {
  experiment_record e;
  e.id = q.column_text(0);
  e.uuid = q.column_text(1);
  e.kind = enum_at<experiment_kind>(q, 2);
  e.command_line = q.column_text(3);
  e.manifest_path = q.get<std::optional<std::string>>(4);
  e.project = q.get<std::optional<std::string>>(5);
  e.config = json_at(q, 6);
  e.seed = q.column_int64(7);
  e.status = enum_at<experiment_status>(q, 8);
  e.started_at = time_at(q, 9);
  e.finished_at = optional_time_at(q, 10);
  e.machine_id = q.get<std::optional<std::int64_t>>(11);
  return e;
}

}  // namespace

void results_store::create_experiment(const experiment_record& e) {
  transaction tx{db_};
  statement q{db_,
              "INSERT INTO experiment(id, uuid, kind, command_line, manifest_path, project, config, seed, status, "
              "started_at, finished_at, machine_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"};
  q.bind_all(e.id, e.uuid.empty() ? new_uuid() : e.uuid, to_string(e.kind), e.command_line, e.manifest_path,
             e.project, json_text(e.config), e.seed, to_string(e.status), format_utc(e.started_at),
             time_text(e.finished_at), e.machine_id);
  q.execute();
  statement arm{db_, "INSERT INTO arm(experiment_id, idx, variant, levels, build_id, role) VALUES (?, ?, ?, ?, ?, ?)"};
  for (const arm_record& a : e.arms) {
    arm.bind_all(e.id, a.idx, a.variant, levels_text(a.levels), a.build_id, to_string(a.role));
    arm.execute();
  }
  tx.commit();
}

void results_store::set_experiment_status(std::string_view id, experiment_status status,
                                          std::optional<time_point> finished_at) {
  transaction tx{db_};
  statement q{db_, "UPDATE experiment SET status = ?, finished_at = coalesce(?, finished_at) WHERE id = ?"};
  q.bind_all(to_string(status), time_text(finished_at), id);
  q.execute();
  if (db_.changes() == 0) throw error(SQLITE_NOTFOUND, "no experiment " + std::string(id), q.sql());
  tx.commit();
}

bool results_store::claim_experiment(std::string_view id, const nlohmann::json& owner) {
  transaction tx{db_};
  statement q{db_,
              "UPDATE experiment SET status = 'running', config = json_set(config, '$.owner', json(?)) "
              "WHERE id = ? AND status = 'incomplete'"};
  q.bind_all(owner.dump(), id);
  q.execute();
  const bool claimed = db_.changes() == 1;
  tx.commit();
  return claimed;
}

void results_store::set_arm_build(std::string_view experiment_id, int arm_idx, std::int64_t build_id) {
  transaction tx{db_};
  statement q{db_, "UPDATE arm SET build_id = ? WHERE experiment_id = ? AND idx = ?"};
  q.bind_all(build_id, experiment_id, arm_idx);
  q.execute();
  if (db_.changes() == 0)
    throw error(SQLITE_NOTFOUND, "no arm " + std::to_string(arm_idx) + " in experiment " + std::string(experiment_id),
                q.sql());
  tx.commit();
}

std::vector<arm_record> results_store::list_arms(std::string_view experiment_id) {
  statement q{db_, "SELECT idx, variant, levels, build_id, role FROM arm WHERE experiment_id = ? ORDER BY idx"};
  q.bind(1, experiment_id);
  std::vector<arm_record> arms;
  while (q.step())
    arms.push_back({q.get<int>(0), q.column_text(1), levels_at(q, 2), q.get<std::optional<std::int64_t>>(3),
                    enum_at<arm_role>(q, 4)});
  return arms;
}

std::optional<experiment_record> results_store::find_experiment(std::string_view id) {
  statement q{db_, "SELECT " + std::string(experiment_columns) + " FROM experiment WHERE id = ?"};
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  experiment_record e = read_experiment(q);
  e.arms = list_arms(e.id);
  return e;
}

std::optional<std::string> results_store::experiment_id_by_uuid(std::string_view uuid) {
  statement q{db_, "SELECT id FROM experiment WHERE uuid = ?"};
  q.bind(1, uuid);
  if (!q.step()) return std::nullopt;
  return q.column_text(0);
}

std::vector<experiment_record> results_store::list_experiments(std::optional<experiment_kind> kind,
                                                               std::size_t limit) {
  statement q{db_, "SELECT " + std::string(experiment_columns) +
                       " FROM experiment WHERE ?1 IS NULL OR kind = ?1 ORDER BY started_at DESC, id DESC LIMIT ?2"};
  q.bind(1, enum_text(kind));
  q.bind(2, limit == 0 ? std::int64_t{-1} : static_cast<std::int64_t>(limit));
  std::vector<experiment_record> experiments;
  while (q.step()) experiments.push_back(read_experiment(q));
  for (experiment_record& e : experiments) e.arms = list_arms(e.id);
  return experiments;
}

}  // namespace abtest::db
