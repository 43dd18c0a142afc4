// db::results_store: the Valgrind counts of an experiment's arms, one row per (arm, benchmark).
#include <string>
#include <string_view>

#include "db/results_store.hpp"
#include "db/statement.hpp"
#include "db/store_codec.hpp"

namespace abtest::db {

using namespace codec;

namespace {

// The columns record_counts binds and list_counts reads, in that order (read_counts takes them by
// position).
constexpr std::string_view counts_columns =
    "experiment_id, arm_idx, benchmark, spec, counts, error, wall_s, recorded_at";

counts_record read_counts(const statement& q) {
  return {q.column_text(0), q.get<int>(1), q.column_text(2), json_at(q, 3), optional_json_at(q, 4),
          q.get<std::optional<std::string>>(5), q.get<std::optional<double>>(6), time_at(q, 7)};
}

}  // namespace

void results_store::record_counts(const counts_record& c) {
  // One row, one statement: atomic without a transaction of its own.
  statement q{db_,
              "INSERT INTO counts(" + std::string(counts_columns) +
                  ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (experiment_id, arm_idx, benchmark) DO UPDATE SET "
              "spec = excluded.spec, counts = excluded.counts, error = excluded.error, wall_s = excluded.wall_s, "
              "recorded_at = excluded.recorded_at"};
  const std::optional<std::string> counts = c.counts ? std::optional(json_text(*c.counts)) : std::nullopt;
  const time_point at = c.recorded_at == time_point{} ? std::chrono::system_clock::now() : c.recorded_at;
  q.bind_all(c.experiment_id, c.arm_idx, c.benchmark, json_text(c.spec), counts, c.error, c.wall_s, format_utc(at));
  q.execute();
}

std::vector<counts_record> results_store::list_counts(std::string_view experiment_id) {
  return select_rows(db_,
                     "SELECT " + std::string(counts_columns) +
                         " FROM counts WHERE experiment_id = ? ORDER BY arm_idx, benchmark",
                     read_counts, experiment_id);
}

}  // namespace abtest::db
