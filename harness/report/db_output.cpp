// The results file's maintenance as `abtest db check` and `abtest db merge` print it.
#include "harness/report/db_output.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace abtest::report {
namespace {

std::string check_text(const db_check_result& r) {
  std::string out = fmt::format("{}: schema v{}, {}\n", r.path.string(), r.check.schema_version, r.check.ok() ? "ok" : "DAMAGED");
  for (const auto& p : r.check.integrity_problems) out += fmt::format("  integrity: {}\n", p);
  for (const auto& p : r.check.foreign_key_problems) out += fmt::format("  foreign key: {}\n", p);
  return out;
}

nlohmann::json merge_json(const db_merge_result& m) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < m.reports.size(); ++i) {
    const auto& r = m.reports[i];
    out.push_back({{"source", m.sources[i].string()}, {"experiments_added", r.experiments_added}, {"samples_added", r.samples_added},
                   {"samples_present", r.samples_present}, {"samples_conflicting", r.samples_conflicting},
                   {"builds_added", r.builds_added}, {"machines_added", r.machines_added},
                   {"renamed_experiments", r.renamed_experiments}});
  }
  return out;
}

std::string merge_text(const db_merge_result& m) {
  std::string out;
  for (std::size_t i = 0; i < m.reports.size(); ++i) {
    const auto& r = m.reports[i];
    out += fmt::format("{}: +{} experiments, +{} samples ({} already present, {} conflicting)\n", m.sources[i].string(),
                       r.experiments_added, r.samples_added, r.samples_present, r.samples_conflicting);
    // Ids are short and time-based: shards started in the same second can share one.
    for (const auto& rename : r.renamed_experiments) out += fmt::format("  renamed (id taken): {}\n", rename);
  }
  return out;
}

}  // namespace

std::string render(const db_check_result& r, format f) {
  if (f == format::json)
    return nlohmann::json({{"ok", r.check.ok()}, {"schema_version", r.check.schema_version}, {"integrity", r.check.integrity_problems},
                           {"foreign_keys", r.check.foreign_key_problems}})
               .dump(2) +
           "\n";
  if (f == format::terminal) return check_text(r);
  throw std::invalid_argument("db check has no markdown or HTML output");
}

std::string render(const db_merge_result& r, format f) {
  if (f == format::json) return merge_json(r).dump(2) + "\n";
  if (f == format::terminal) return merge_text(r);
  throw std::invalid_argument("db merge has no markdown or HTML output");
}

}  // namespace abtest::report
