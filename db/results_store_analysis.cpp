// db::results_store: what analysis writes — verdicts, effects, bisect steps, change points,
// references — and the history series it reads.
#include <sqlite3.h>

#include "db/error.hpp"
#include "db/results_store.hpp"
#include "db/statement.hpp"
#include "db/store_codec.hpp"
#include "db/transaction.hpp"

namespace abtest::db {

using namespace codec;

namespace {

// The columns that a table's INSERT binds and its list_* SELECT reads, in that order: the read_*
// functions below take them by position.
constexpr std::string_view verdict_columns =
    "experiment_id, variant, baseline, metric, n, baseline_median, candidate_median, ratio, ci_low, ci_high, "
    "hl_ratio, hl_low, hl_high, p_value, p_adjusted, verdict, immaterial, note, created_at, details";
constexpr std::string_view effect_columns =
    "experiment_id, metric, term, estimate, se, ci_low, ci_high, p_value, p_adjusted, role";
constexpr std::string_view bisect_step_columns =
    "experiment_id, step, from_variant, to_variant, verdict, rounds, ratio, note";

// One row of each list_* query below, in its SELECT's column order.

verdict_record read_verdict(const statement& q) {
  using opt = std::optional<double>;
  verdict_record v{q.column_text(0), q.column_text(1), q.column_text(2), q.column_text(3), q.column_int64(4),
                   q.get<opt>(5), q.get<opt>(6), q.get<opt>(7), q.get<opt>(8), q.get<opt>(9), q.get<opt>(10),
                   q.get<opt>(11), q.get<opt>(12), q.get<opt>(13), q.get<opt>(14),
                   enum_at<verdict_kind>(q, 15), q.get<bool>(16), q.get<std::optional<std::string>>(17),
                   time_at(q, 18)};
  if (const auto d = q.get<std::optional<std::string>>(19)) v.details = nlohmann::json::parse(*d);
  return v;
}

effect_record read_effect(const statement& q) {
  using opt = std::optional<double>;
  return {q.column_text(0), q.column_text(1), q.column_text(2), q.column_double(3), q.get<opt>(4),
          q.get<opt>(5), q.get<opt>(6), q.get<opt>(7), q.get<opt>(8), q.get<std::optional<std::string>>(9)};
}

bisect_step_record read_bisect_step(const statement& q) {
  std::optional<verdict_kind> verdict;
  if (!q.column_is_null(4)) verdict = enum_at<verdict_kind>(q, 4);
  return {q.column_text(0), q.get<int>(1), q.column_text(2), q.column_text(3), verdict, q.get<int>(5),
          q.get<std::optional<double>>(6), q.get<std::optional<std::string>>(7)};
}

changepoint_record read_changepoint(const statement& q) {
  return {q.column_int64(0), q.column_text(1), q.column_text(2), q.get<std::optional<std::string>>(3),
          time_at(q, 4), q.column_double(5), q.get<std::optional<double>>(6), enum_at<changepoint_state>(q, 7),
          q.get<std::optional<std::string>>(8)};
}

reference_record read_reference(const statement& q) {
  return {q.column_int64(0), q.column_text(1), json_at(q, 2), q.column_text(3), q.column_double(4)};
}

}  // namespace

// --- verdicts --------------------------------------------------------------------------------

void results_store::replace_verdicts(std::string_view experiment_id, std::span<const verdict_record> verdicts) {
  transaction tx{db_};
  statement clear{db_, "DELETE FROM verdict WHERE experiment_id = ?"};
  clear.bind(1, experiment_id);
  clear.execute();
  statement q{db_, "INSERT INTO verdict(" + std::string(verdict_columns) +
                       ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"};
  const time_point now = std::chrono::system_clock::now();
  for (const verdict_record& v : verdicts) {
    q.bind_all(experiment_id, v.variant, v.baseline, v.metric, v.n, v.baseline_median, v.candidate_median, v.ratio,
               v.ci_low, v.ci_high, v.hl_ratio, v.hl_low, v.hl_high, v.p_value, v.p_adjusted, to_string(v.verdict),
               v.immaterial, v.note, format_utc(v.created_at == time_point{} ? now : v.created_at),
               v.details.empty() ? std::optional<std::string>() : std::optional<std::string>(json_text(v.details)));
    q.execute();
  }
  tx.commit();
}

std::vector<verdict_record> results_store::list_verdicts(std::string_view experiment_id) {
  return select_rows(db_,
                     "SELECT " + std::string(verdict_columns) +
                         " FROM verdict WHERE experiment_id = ? ORDER BY variant, metric, baseline",
                     read_verdict, experiment_id);
}

// --- effects ---------------------------------------------------------------------------------

void results_store::replace_effects(std::string_view experiment_id, std::span<const effect_record> effects) {
  transaction tx{db_};
  statement clear{db_, "DELETE FROM effect WHERE experiment_id = ?"};
  clear.bind(1, experiment_id);
  clear.execute();
  statement q{db_,
              "INSERT INTO effect(" + std::string(effect_columns) + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"};
  for (const effect_record& e : effects) {
    q.bind_all(experiment_id, e.metric, e.term, e.estimate, e.se, e.ci_low, e.ci_high, e.p_value, e.p_adjusted, e.role);
    q.execute();
  }
  tx.commit();
}

std::vector<effect_record> results_store::list_effects(std::string_view experiment_id) {
  return select_rows(db_,
                     "SELECT " + std::string(effect_columns) +
                         " FROM effect WHERE experiment_id = ? ORDER BY metric, term",
                     read_effect, experiment_id);
}

// --- bisect steps ----------------------------------------------------------------------------

void results_store::insert_bisect_step(const bisect_step_record& s) {
  transaction tx{db_};
  statement q{db_,
              "INSERT INTO bisect_step(" + std::string(bisect_step_columns) + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)"};
  q.bind_all(s.experiment_id, s.step, s.from_variant, s.to_variant, enum_text(s.verdict), s.rounds, s.ratio, s.note);
  q.execute();
  tx.commit();
}

std::vector<bisect_step_record> results_store::list_bisect_steps(std::string_view experiment_id) {
  return select_rows(db_,
                     "SELECT " + std::string(bisect_step_columns) +
                         " FROM bisect_step WHERE experiment_id = ? ORDER BY step",
                     read_bisect_step, experiment_id);
}

// --- change points ---------------------------------------------------------------------------

std::int64_t results_store::record_changepoint(const changepoint_record& c) {
  transaction tx{db_};
  statement q{db_,
              "INSERT INTO changepoint(variant, metric, at_experiment, at_time, magnitude, p_value, state, note) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
              "ON CONFLICT(variant, metric, at_time) DO UPDATE SET magnitude = excluded.magnitude, "
              "p_value = excluded.p_value, at_experiment = coalesce(excluded.at_experiment, at_experiment) "
              "RETURNING id"};
  q.bind_all(c.variant, c.metric, c.at_experiment, format_utc(c.at_time), c.magnitude, c.p_value, to_string(c.state),
             c.note);
  q.step();
  const std::int64_t id = q.column_int64(0);
  q.reset();
  tx.commit();
  return id;
}

void results_store::set_changepoint_state(std::int64_t id, changepoint_state state,
                                          const std::optional<std::string>& note) {
  transaction tx{db_};
  statement q{db_, "UPDATE changepoint SET state = ?, note = coalesce(?, note) WHERE id = ?"};
  q.bind_all(to_string(state), note, id);
  q.execute();
  if (db_.changes() == 0) throw error(SQLITE_NOTFOUND, "no change point " + std::to_string(id), q.sql());
  tx.commit();
}

std::vector<changepoint_record> results_store::list_changepoints(const std::optional<std::string>& variant,
                                                                 const std::optional<std::string>& metric) {
  return select_rows(
      db_,
      "SELECT id, variant, metric, at_experiment, at_time, magnitude, p_value, state, note FROM changepoint "
      "WHERE (?1 IS NULL OR variant = ?1) AND (?2 IS NULL OR metric = ?2) ORDER BY at_time, id",
      read_changepoint, variant, metric);
}

// --- references ------------------------------------------------------------------------------

std::int64_t results_store::upsert_reference(const reference_record& r) {
  transaction tx{db_};
  statement q{db_,
              "INSERT INTO reference(label, params, metric, value) VALUES (?, ?, ?, ?) "
              "ON CONFLICT(label, params, metric) DO UPDATE SET value = excluded.value RETURNING id"};
  q.bind_all(r.label, json_text(r.params), r.metric, r.value);
  q.step();
  const std::int64_t id = q.column_int64(0);
  q.reset();
  tx.commit();
  return id;
}

std::vector<reference_record> results_store::list_references() {
  return select_rows(db_, "SELECT id, label, params, metric, value FROM reference ORDER BY label, metric, id",
                     read_reference);
}

// --- history ---------------------------------------------------------------------------------

std::vector<series_point> results_store::series(std::string_view variant, std::string_view metric,
                                                std::optional<experiment_kind> kind) {
  // The values themselves, sorted per (experiment, arm), summarised here: filtering before any
  // aggregation lets SQLite use the indexes, where the v_series view would summarise every
  // sample of the file first.
  statement q{db_,
              "SELECT e.id, e.kind, e.started_at, s.arm_idx, m.value FROM metric m "
              "JOIN sample s ON s.id = m.sample_id "
              "JOIN arm a ON a.experiment_id = s.experiment_id AND a.idx = s.arm_idx "
              "JOIN experiment e ON e.id = s.experiment_id "
              "WHERE m.name = ?2 AND a.variant = ?1 AND s.warmup = 0 AND s.status = 'ok' "
              "AND (?3 IS NULL OR e.kind = ?3) "
              "ORDER BY e.started_at, e.id, s.arm_idx, m.value"};
  q.bind_all(variant, metric, enum_text(kind));
  std::vector<series_point> points;
  std::vector<double> values;  // of the current point, ascending
  auto finish = [&] {
    // Median of the sorted values; for even n the mean of the two middle ones (as v_variant_summary).
    const std::size_t n = values.size();
    series_point& p = points.back();
    p.n = static_cast<std::int64_t>(n);
    p.min = values.front();
    p.max = values.back();
    p.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    values.clear();
  };
  while (q.step()) {
    if (points.empty() || points.back().experiment_id != q.column_text(0) || points.back().arm_idx != q.get<int>(3)) {
      if (!values.empty()) finish();
      points.push_back({q.column_text(0), enum_at<experiment_kind>(q, 1), time_at(q, 2), q.get<int>(3), 0, 0, 0, 0});
    }
    values.push_back(q.column_double(4));
  }
  if (!values.empty()) finish();
  return points;
}

std::vector<std::pair<std::string, std::string>> results_store::series_keys(std::optional<experiment_kind> kind) {
  statement q{db_,
              "SELECT DISTINCT a.variant, m.name FROM sample s "
              "JOIN arm a ON a.experiment_id = s.experiment_id AND a.idx = s.arm_idx "
              "JOIN metric m ON m.sample_id = s.id "
              "JOIN experiment e ON e.id = s.experiment_id "
              "WHERE s.warmup = 0 AND s.status = 'ok' AND (?1 IS NULL OR e.kind = ?1) "
              "ORDER BY a.variant, m.name"};
  q.bind(1, enum_text(kind));
  std::vector<std::pair<std::string, std::string>> keys;
  while (q.step()) keys.emplace_back(q.column_text(0), q.column_text(1));
  return keys;
}

}  // namespace abtest::db
