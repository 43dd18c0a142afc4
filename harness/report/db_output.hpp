// What `abtest db check` and `abtest db merge` print: the results file's health, and what each
// merged file added — for the terminal and --json.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "db/maintenance.hpp"
#include "harness/report/exporter.hpp"

namespace abtest::report {

struct db_check_result {
  std::filesystem::path path;  // the results file checked
  db::check_report check;
};

// terminal: "PATH: schema v6, ok" (or DAMAGED) and a line per problem; json: {ok, schema_version,
// integrity[], foreign_keys[]}.
std::string render(const db_check_result& r, format f);

struct db_merge_result {
  std::vector<std::filesystem::path> sources;  // the files merged in, in order
  std::vector<db::merge_report> reports;       // one per source
};

// terminal: per source "FILE: +N experiments, +N samples (N already present, N conflicting)" and a
// line per experiment renamed because its id was taken; json: [{source, experiments_added,
// samples_added, samples_present, samples_conflicting, builds_added, machines_added,
// renamed_experiments}].
std::string render(const db_merge_result& r, format f);

}  // namespace abtest::report
