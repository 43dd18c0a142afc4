// db::results_store: alerts — confirmed regressions grouped by change, sightings, triage events (design §9.1).
#include <sqlite3.h>

#include <map>
#include <set>
#include <tuple>

#include "db/error.hpp"
#include "db/ids.hpp"
#include "db/results_store.hpp"
#include "db/statement.hpp"
#include "db/store_codec.hpp"
#include "db/transaction.hpp"

namespace abtest::db {

using namespace codec;

namespace {

using change_key = std::tuple<alert_source, std::string, std::string, std::string>;  // source, subject, benchmark, change

std::optional<std::int64_t> alert_of_change(database& db, const change_key& k) {
  statement q{db, "SELECT id FROM alert WHERE source = ? AND subject = ? AND benchmark = ? AND change = ?"};
  q.bind_all(to_string(std::get<0>(k)), std::get<1>(k), std::get<2>(k), std::get<3>(k));
  if (!q.step()) return std::nullopt;
  return q.column_int64(0);
}

// The open alert of the same source, subject and benchmark that holds one of `metrics` (the newest).
std::optional<std::int64_t> open_alert_holding(database& db, const change_key& k, const std::set<std::string>& metrics) {
  statement q{db,
              "SELECT a.id FROM alert a JOIN alert_metric m ON m.alert_id = a.id "
              "WHERE a.source = ? AND a.subject = ? AND a.benchmark = ? AND m.metric = ? "
              "AND a.state IN ('new', 'acknowledged', 'expected') ORDER BY a.id DESC LIMIT 1"};
  for (const auto& metric : metrics) {
    q.bind_all(to_string(std::get<0>(k)), std::get<1>(k), std::get<2>(k), metric);
    const bool found = q.step();
    const std::int64_t id = found ? q.column_int64(0) : 0;
    q.reset();
    if (found) return id;
  }
  return std::nullopt;
}

void insert_event(database& db, std::int64_t alert, const std::optional<alert_state>& from, alert_state to,
                  const std::string& note, const std::string& at) {
  statement q{db, "INSERT INTO alert_event(alert_id, at, from_state, to_state, note) VALUES (?, ?, ?, ?, ?)"};
  q.bind_all(alert, at, enum_text(from), to_string(to), note);
  q.execute();
}

std::string opening_note(const alert_sighting& s) {
  return "opened by " + std::string(to_string(s.source)) + " change " + s.change +
         (s.experiment_id ? " (experiment " + *s.experiment_id + ")" : std::string());
}

std::vector<alert_record> read_alerts(database& db, std::optional<alert_state> state, bool open_only,
                                      std::optional<std::int64_t> id) {
  statement q{db,
              "SELECT id, uuid, source, subject, benchmark, change, state, opened_at, updated_at FROM alert "
              "WHERE (?1 IS NULL OR state = ?1) AND (?2 = 0 OR state IN ('new', 'acknowledged', 'expected')) "
              "AND (?3 IS NULL OR id = ?3) "
              "ORDER BY id DESC"};
  q.bind_all(enum_text(state), open_only ? 1 : 0, id);
  std::vector<alert_record> alerts;
  while (q.step())
    alerts.push_back({q.column_int64(0), q.column_text(1), enum_at<alert_source>(q, 2), q.column_text(3),
                      q.column_text(4), q.column_text(5), enum_at<alert_state>(q, 6), time_at(q, 7), time_at(q, 8), {}, {}});
  statement metrics{db,
                    "SELECT m.metric, m.ratio, m.ci_low, m.ci_high, m.before_median, m.after_median, "
                    "(SELECT count(*) FROM alert_sighting s WHERE s.alert_id = m.alert_id AND s.metric = m.metric) "
                    "FROM alert_metric m WHERE m.alert_id = ? ORDER BY m.metric"};
  statement events{db, "SELECT at, from_state, to_state, note FROM alert_event WHERE alert_id = ? ORDER BY id"};
  for (auto& a : alerts) {
    metrics.bind(1, a.id);
    while (metrics.step())
      a.metrics.push_back({metrics.column_text(0), metrics.column_double(1), metrics.get<std::optional<double>>(2),
                           metrics.get<std::optional<double>>(3), metrics.get<std::optional<double>>(4),
                           metrics.get<std::optional<double>>(5), metrics.get<int>(6)});
    metrics.reset();
    events.bind(1, a.id);
    while (events.step()) {
      std::optional<alert_state> from;
      if (!events.column_is_null(1)) from = enum_at<alert_state>(events, 1);
      a.events.push_back({time_at(events, 0), from, enum_at<alert_state>(events, 2), events.column_text(3)});
    }
    events.reset();
  }
  return alerts;
}

}  // namespace

std::vector<std::int64_t> results_store::record_sightings(std::span<const alert_sighting> sightings) {
  transaction tx{db_};
  const std::string now = format_utc(std::chrono::system_clock::now());
  std::map<change_key, std::vector<std::size_t>> changes;
  for (std::size_t i = 0; i < sightings.size(); ++i) {
    const auto& s = sightings[i];
    if (s.subject.empty() || s.benchmark.empty() || s.metric.empty() || s.change.empty())
      throw error(SQLITE_CONSTRAINT, "an alert sighting needs a subject, a benchmark, a metric and a change");
    changes[{s.source, s.subject, s.benchmark, s.change}].push_back(i);
  }
  std::vector<std::int64_t> alert_of(sightings.size(), 0);
  statement add_metric{db_,
                       "INSERT INTO alert_metric(alert_id, metric, ratio, ci_low, ci_high, before_median, after_median) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(alert_id, metric) DO NOTHING"};
  statement add_sighting{db_,
                         "INSERT INTO alert_sighting(alert_id, metric, change, experiment_id, seen_at, ratio) "
                         "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"};
  statement touch{db_, "UPDATE alert SET updated_at = ? WHERE id = ?"};
  for (const auto& [key, members] : changes) {
    std::set<std::string> metrics;
    for (const std::size_t i : members) metrics.insert(sightings[i].metric);
    auto alert = alert_of_change(db_, key);
    if (!alert) alert = open_alert_holding(db_, key, metrics);
    if (!alert) {
      const auto& first = sightings[members.front()];
      statement open{db_,
                     "INSERT INTO alert(uuid, source, subject, benchmark, change, state, opened_at, updated_at) "
                     "VALUES (?, ?, ?, ?, ?, 'new', ?, ?) RETURNING id"};
      open.bind_all(new_uuid(), to_string(first.source), first.subject, first.benchmark, first.change, now, now);
      open.step();
      alert = open.column_int64(0);
      open.reset();
      insert_event(db_, *alert, std::nullopt, alert_state::new_, opening_note(first), now);
    }
    for (const std::size_t i : members) {
      const auto& s = sightings[i];
      const std::string seen = s.seen_at == time_point{} ? now : format_utc(s.seen_at);
      add_metric.bind_all(*alert, s.metric, s.ratio, s.ci_low, s.ci_high, s.before_median, s.after_median);
      add_metric.execute();
      add_sighting.bind_all(*alert, s.metric, s.change, s.experiment_id, seen, s.ratio);
      add_sighting.execute();
      alert_of[i] = *alert;
    }
    touch.bind_all(now, *alert);
    touch.execute();
  }
  tx.commit();
  return alert_of;
}

void results_store::set_alert_state(std::int64_t id, alert_state state, const std::string& note) {
  if (note.empty()) throw error(SQLITE_CONSTRAINT, "an alert's state changes with a note — say why");
  transaction tx{db_};
  statement q{db_, "SELECT state FROM alert WHERE id = ?"};
  q.bind(1, id);
  if (!q.step()) throw error(SQLITE_NOTFOUND, "no alert " + std::to_string(id), q.sql());
  const auto from = enum_at<alert_state>(q, 0);
  q.reset();
  if (from == state)
    throw error(SQLITE_CONSTRAINT, "alert " + std::to_string(id) + " is already " + std::string(to_string(state)));
  const std::string now = format_utc(std::chrono::system_clock::now());
  statement u{db_, "UPDATE alert SET state = ?, updated_at = ? WHERE id = ?"};
  u.bind_all(to_string(state), now, id);
  u.execute();
  insert_event(db_, id, from, state, note, now);
  tx.commit();
}

std::vector<alert_record> results_store::list_alerts(std::optional<alert_state> state, bool open_only) {
  return read_alerts(db_, state, open_only, std::nullopt);
}

std::optional<alert_record> results_store::find_alert(std::int64_t id) {
  auto found = read_alerts(db_, std::nullopt, false, id);
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

}  // namespace abtest::db
