// db::results_store: merging another results file into this one, deduplicating by uuid.
#include <sqlite3.h>

#include <map>

#include "db/error.hpp"
#include "db/results_store.hpp"
#include "db/statement.hpp"
#include "db/transaction.hpp"

namespace abtest::db {

namespace {

/// Maps a source row id to the target's; nullopt stays nullopt.
std::optional<std::int64_t> mapped(const std::map<std::int64_t, std::int64_t>& ids, std::optional<std::int64_t> id) {
  if (!id) return std::nullopt;
  return ids.at(*id);
}

}  // namespace

merge_report results_store::merge_from(const std::filesystem::path& source_path) {
  results_store source{source_path, open_mode::read_only, {db_.busy_timeout()}};
  merge_report report;
  transaction tx{db_};

  // Machines: matched by fingerprint; the target's description of a known machine wins.
  std::map<std::int64_t, std::int64_t> machine_ids;
  for (const machine_record& m : source.list_machines()) {
    statement find{db_, "SELECT id FROM machine WHERE fingerprint = ?"};
    find.bind(1, m.fingerprint);
    if (find.step()) {
      machine_ids[m.id] = find.column_int64(0);
    } else {
      machine_ids[m.id] = upsert_machine(m);
      ++report.machines_added;
    }
  }

  std::map<std::int64_t, std::int64_t> build_ids;
  for (build_record b : source.list_builds()) {
    if (auto existing = find_id_by_uuid("build", b.uuid)) {
      build_ids[b.id] = *existing;
      continue;
    }
    b.machine_id = mapped(machine_ids, b.machine_id);
    build_ids[b.id] = insert_build(b);
    ++report.builds_added;
  }

  std::map<std::string, std::string> experiment_ids;
  for (experiment_record e : source.list_experiments()) {
    const std::string source_id = e.id;
    std::optional<std::string> target_id = experiment_id_by_uuid(e.uuid);
    const bool added = !target_id;
    if (added) {
      // Ids are short and time-based: two files can hold different experiments with one id.
      for (int suffix = 2; find_experiment(e.id); ++suffix) e.id = source_id + "-" + std::to_string(suffix);
      if (e.id != source_id) report.renamed_experiments.push_back(source_id + " -> " + e.id);
      e.machine_id = mapped(machine_ids, e.machine_id);
      for (arm_record& a : e.arms) a.build_id = mapped(build_ids, a.build_id);
      create_experiment(e);
      ++report.experiments_added;
      target_id = e.id;
    }
    experiment_ids[source_id] = *target_id;

    for (sample s : source.list_samples(source_id)) {
      if (find_id_by_uuid("sample", s.uuid)) {
        ++report.samples_present;
        continue;
      }
      s.experiment_id = *target_id;
      s.machine_id = machine_ids.at(s.machine_id);
      s.build_id = mapped(build_ids, s.build_id);
      try {
        insert_sample(s);
        ++report.samples_added;
      } catch (const error& conflict) {
        // The same (arm, benchmark, round, warmup) measured in both files (e.g. one experiment
        // resumed separately in two copies): keep the target's; the nested transaction rolled back.
        if (conflict.code() != SQLITE_CONSTRAINT_UNIQUE) throw;
        ++report.samples_conflicting;
      }
    }

    // Analyses belong to an experiment as a whole: copied only where the target has none.
    if (list_verdicts(*target_id).empty()) {
      auto verdicts = source.list_verdicts(source_id);
      replace_verdicts(*target_id, verdicts);
      report.verdicts_added += static_cast<std::int64_t>(verdicts.size());
    }
    if (list_effects(*target_id).empty()) replace_effects(*target_id, source.list_effects(source_id));
    if (added) {
      for (bisect_step_record step : source.list_bisect_steps(source_id)) {
        step.experiment_id = *target_id;
        insert_bisect_step(step);
      }
      for (counts_record c : source.list_counts(source_id)) {
        c.experiment_id = *target_id;
        record_counts(c);
      }
    }
  }

  for (changepoint_record c : source.list_changepoints()) {
    if (c.at_experiment) c.at_experiment = experiment_ids.at(*c.at_experiment);
    record_changepoint(c);
  }
  for (const reference_record& r : source.list_references()) upsert_reference(r);

  tx.commit();
  report.experiment_ids = std::move(experiment_ids);
  return report;
}

}  // namespace abtest::db
