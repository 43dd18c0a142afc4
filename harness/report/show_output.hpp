// What `abtest show` prints of one experiment — plan, arms and their builds, sample counts and
// statuses, stored verdicts — and `abtest list` of many, for the terminal and --json (design §9).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "db/records.hpp"
#include "harness/report/exporter.hpp"
#include "harness/sample/sample.hpp"

namespace abtest::report {

struct experiment_view {
  db::experiment_record experiment;
  std::map<std::int64_t, db::build_record> builds;  // the arms' builds, by id
  std::map<std::pair<int, std::string>, std::map<std::string, int>> samples;  // (arm, benchmark) → status → n
  std::vector<db::verdict_record> verdicts;
};

// (arm, benchmark) → status ("ok", "failed (warm-up)", …) → samples.
std::map<std::pair<int, std::string>, std::map<std::string, int>> sample_counts(const std::vector<sample>& samples);

// terminal: the experiment's lines (arms with their builds, samples, a line per verdict); json: the
// contract's {"experiment", "baseline", "verdicts"} with kind, status, command_line, seed, config,
// arms (idx, variant, role, levels, build) and samples (variant → benchmark → status → n).
std::string render(const experiment_view& v, format f);

// `abtest list`: experiments, newest first, each with its status as this host reads it (a run whose
// process died shows as incomplete).
struct experiment_list {
  std::vector<std::pair<db::experiment_record, std::string>> experiments;  // (experiment, status)
};
// terminal: a table (experiment, kind, status, started, arms); json: [{experiment, kind, status,
// started_at, arms, command_line}].
std::string render(const experiment_list& l, format f);

// A stored verdict as one terminal line: "  verdict SLOW  planted.total_s  n=10  ratio 1.3000 [1.28, 1.32] SLOWER",
// with its layout split under it when it has one.
std::string stored_verdict_text(const db::verdict_record& v);

}  // namespace abtest::report
