// db::results_store: the typed API over the results database — the only place SQL strings live.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "db/database.hpp"
#include "db/records.hpp"

namespace abtest::db {

/// What merge_from copied, and what it left out because the target already had it.
struct merge_report {
  std::int64_t machines_added = 0;
  std::int64_t builds_added = 0;
  std::int64_t experiments_added = 0;
  std::int64_t samples_added = 0;
  std::int64_t samples_present = 0;      ///< same uuid already in the target
  std::int64_t samples_conflicting = 0;  ///< another sample holds its (arm, benchmark, round, warmup)
  std::int64_t verdicts_added = 0;
  /// "<source id> -> <new id>" for experiments whose id was taken by a different experiment.
  std::vector<std::string> renamed_experiments;
  /// Every experiment of the source: its id there → its id here (new or already present).
  std::map<std::string, std::string> experiment_ids;
};

/// The results of all experiments, in one SQLite file (design §8, schema in db/README.md).
/// Opening for writing applies pending migrations; opening read-only requires the latest schema.
/// Every write that touches more than one row runs in one transaction (nested calls become
/// savepoints), so a crash never leaves half a sample or half an experiment behind.
/// Records' `id`/`uuid` fields that the store assigns are ignored on insert (uuid only when empty).
///
///   db::results_store store{".abtest/results.db"};
///   auto machine = store.upsert_machine(this_host);
///   store.create_experiment(experiment);                     // with its arms
///   for (auto& s : samples) store.insert_sample(s);          // each with all its metrics
///   store.replace_verdicts(experiment.id, verdicts);
///   store.set_experiment_status(experiment.id, db::experiment_status::complete, now);
class results_store {
 public:
  explicit results_store(const std::filesystem::path& path, open_mode mode = open_mode::read_write_create,
                         open_options options = {});

  database& connection() noexcept { return db_; }

  // --- machines -----------------------------------------------------------------------------
  /// Inserts the machine, or updates the row with the same fingerprint; returns its id.
  std::int64_t upsert_machine(const machine_record& machine);
  std::vector<machine_record> list_machines();

  // --- builds -------------------------------------------------------------------------------
  /// Inserts the build with its binaries in one transaction; returns its id.
  std::int64_t insert_build(const build_record& build);
  std::optional<build_record> find_build(std::int64_t id);
  /// The newest successful, clean (not dirty) build of `variant` at `commit_sha` (nullopt matches
  /// builds made outside a git checkout).
  std::optional<build_record> latest_ok_build(std::string_view variant, const std::optional<std::string>& commit_sha);
  /// All builds, oldest first.
  std::vector<build_record> list_builds();

  // --- experiments --------------------------------------------------------------------------
  /// Inserts the experiment and its arms in one transaction. Throws db::error when the id exists.
  void create_experiment(const experiment_record& experiment);
  void set_experiment_status(std::string_view id, experiment_status status,
                             std::optional<time_point> finished_at = std::nullopt);
  /// Takes over an `incomplete` experiment for `--resume`: status becomes `running` and
  /// config.owner becomes `owner` ({"host", "pid"}), in one statement, so two resumers cannot both
  /// win. Returns false when the experiment was not incomplete (already claimed or complete).
  bool claim_experiment(std::string_view id, const nlohmann::json& owner);
  void set_arm_build(std::string_view experiment_id, int arm_idx, std::int64_t build_id);
  /// With its arms; nullopt when there is no such experiment.
  std::optional<experiment_record> find_experiment(std::string_view id);
  /// Newest first, with their arms; `limit` 0 means all.
  std::vector<experiment_record> list_experiments(std::optional<experiment_kind> kind = std::nullopt,
                                                  std::size_t limit = 0);

  // --- samples ------------------------------------------------------------------------------
  /// Inserts one sample and all its metrics in one transaction; returns the sample's id. A second
  /// sample with the same (experiment, arm, benchmark, round, warmup) fails with
  /// SQLITE_CONSTRAINT_UNIQUE. Non-finite metric values throw std::invalid_argument.
  std::int64_t insert_sample(const sample& s);
  /// The same for many samples in one transaction (all or none); returns their ids in order.
  std::vector<std::int64_t> insert_samples(std::span<const sample> samples);
  /// All samples of the experiment with their metrics, in insertion order.
  std::vector<sample> list_samples(std::string_view experiment_id);
  /// The keys already stored, for --resume.
  std::set<sample_key> sample_keys(std::string_view experiment_id);

  // --- analysis -----------------------------------------------------------------------------
  /// Replaces all verdicts of the experiment with these, in one transaction (re-analysis).
  void replace_verdicts(std::string_view experiment_id, std::span<const verdict_record> verdicts);
  std::vector<verdict_record> list_verdicts(std::string_view experiment_id);
  /// Replaces all effects of the experiment with these, in one transaction.
  void replace_effects(std::string_view experiment_id, std::span<const effect_record> effects);
  std::vector<effect_record> list_effects(std::string_view experiment_id);
  void insert_bisect_step(const bisect_step_record& step);
  std::vector<bisect_step_record> list_bisect_steps(std::string_view experiment_id);
  /// Records a change point; one already recorded for (variant, metric, at_time) gets the new
  /// magnitude and p-value but keeps its state and note (so a nightly re-detection does not
  /// reopen an acknowledged change). Returns its id.
  std::int64_t record_changepoint(const changepoint_record& changepoint);
  /// Throws db::error (SQLITE_NOTFOUND) when there is no such change point.
  void set_changepoint_state(std::int64_t id, changepoint_state state,
                             const std::optional<std::string>& note = std::nullopt);
  /// Oldest first; filters are optional.
  std::vector<changepoint_record> list_changepoints(const std::optional<std::string>& variant = std::nullopt,
                                                    const std::optional<std::string>& metric = std::nullopt);
  /// Inserts or updates the reference value of (label, params, metric); returns its id.
  // --- alerts (design §9.1; results_store_alerts.cpp) ---
  /// The regressions one experiment confirmed, in one transaction. Sightings of one (source,
  /// subject, benchmark, change) are one change: they join the alert of that change if there is
  /// one (a metric it lacks joins as a sibling), else the open alert of the same (source, subject,
  /// benchmark) that already holds one of their metrics — a second sighting of the same
  /// regression, e.g. a PR pushed again —, else they open one new alert together.
  /// Returns the alert of each sighting, in input order.
  std::vector<std::int64_t> record_sightings(std::span<const alert_sighting> sightings);
  /// Moves an alert to `state` with a note (required), recording the event; throws db::error for
  /// an unknown id, the state it already has, or an empty note.
  void set_alert_state(std::int64_t id, alert_state state, const std::string& note);
  /// Alerts with their metrics and events, newest first; `state` filters, `open_only` keeps new,
  /// acknowledged and expected ones.
  std::vector<alert_record> list_alerts(std::optional<alert_state> state = std::nullopt, bool open_only = false);
  std::optional<alert_record> find_alert(std::int64_t id);

  std::int64_t upsert_reference(const reference_record& reference);
  std::vector<reference_record> list_references();

  // --- counts -------------------------------------------------------------------------------
  /// Stores the counts (or the failure) of one (experiment, arm, benchmark), replacing what was
  /// there: a resumed run retries a failed one. Throws db::error (a foreign key) for an unknown arm.
  void record_counts(const counts_record& counts);
  /// The experiment's counts rows, by arm and benchmark.
  std::vector<counts_record> list_counts(std::string_view experiment_id);

  // --- history ------------------------------------------------------------------------------
  /// Per experiment (oldest first), the median of the measured, successful samples of `metric`
  /// in each arm running `variant`; `kind` restricts to one kind of experiment (e.g. nightly).
  std::vector<series_point> series(std::string_view variant, std::string_view metric,
                                   std::optional<experiment_kind> kind = std::nullopt);
  /// The (variant, metric) pairs that have a series (measured, successful samples), sorted; for
  /// `abtest history` without --variant / --metric.
  std::vector<std::pair<std::string, std::string>> series_keys(std::optional<experiment_kind> kind = std::nullopt);

  // --- maintenance --------------------------------------------------------------------------
  /// Copies what `source` (another results file) has and this one lacks, deduplicating by uuid
  /// (machines by fingerprint), all in one transaction. Samples keep their machine and build.
  merge_report merge_from(const std::filesystem::path& source);

 private:
  std::optional<std::int64_t> find_id_by_uuid(std::string_view table, std::string_view uuid);
  std::optional<std::string> experiment_id_by_uuid(std::string_view uuid);
  std::vector<arm_record> list_arms(std::string_view experiment_id);
  std::vector<build_binary> list_binaries(std::int64_t build_id);

  database db_;
};

}  // namespace abtest::db
