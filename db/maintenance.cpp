// db maintenance: integrity and foreign-key checks, and merging several results files into one.
#include "db/maintenance.hpp"

#include "db/migrations.hpp"
#include "db/statement.hpp"

namespace abtest::db {

check_report check(const std::filesystem::path& path) {
  database db{path, open_mode::read_only};
  check_report report;
  report.schema_version = db.user_version();
  if (report.schema_version > latest_schema_version()) require_latest_schema(db);  // throws: newer than we know

  statement integrity{db, "PRAGMA integrity_check"};
  while (integrity.step())
    if (integrity.column_text(0) != "ok") report.integrity_problems.push_back(integrity.column_text(0));

  statement foreign_keys{db, "PRAGMA foreign_key_check"};
  while (foreign_keys.step()) {
    // WITHOUT ROWID tables report a NULL rowid.
    const std::string row = foreign_keys.column_is_null(1) ? "?" : std::to_string(foreign_keys.column_int64(1));
    report.foreign_key_problems.push_back(foreign_keys.column_text(0) + " row " + row + " → missing " +
                                          foreign_keys.column_text(2));
  }
  return report;
}

std::vector<merge_report> merge(const std::filesystem::path& target, std::span<const std::filesystem::path> sources) {
  results_store store{target};
  std::vector<merge_report> reports;
  for (const std::filesystem::path& source : sources) reports.push_back(store.merge_from(source));
  return reports;
}

}  // namespace abtest::db
