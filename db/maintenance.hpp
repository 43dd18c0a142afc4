// db maintenance: `abtest db check` (integrity) and `abtest db merge` (combine results files).
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "db/results_store.hpp"

namespace abtest::db {

struct check_report {
  int schema_version = 0;
  std::vector<std::string> integrity_problems;    ///< PRAGMA integrity_check lines other than "ok"
  std::vector<std::string> foreign_key_problems;  ///< "<table> row <rowid> → missing <parent>"
  bool ok() const noexcept { return integrity_problems.empty() && foreign_key_problems.empty(); }
};

/// Checks the results file at `path` without writing to it: SQLite's integrity_check and
/// foreign_key_check, and the schema version (throws db::error for a newer or foreign file).
check_report check(const std::filesystem::path& path);

/// Merges each source into the target (created and migrated when missing), one transaction per
/// source; returns one report per source, in order.
std::vector<merge_report> merge(const std::filesystem::path& target, std::span<const std::filesystem::path> sources);

}  // namespace abtest::db
