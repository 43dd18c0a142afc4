// What `abtest bisect --commits GOOD..BAD` found — the first bad commit with the defaults it
// flipped and its mechanism blocks, or the candidates, and each commit tested — for the terminal
// and --json (design §7, §9).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/builder/resolved_toggles.hpp"
#include "harness/report/exporter.hpp"
#include "harness/report/mechanisms.hpp"
#include "harness/stats/metric_policy.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::report {

struct commit_bisect_result {
  std::string experiment;
  std::vector<std::string> range;  // GOOD, then GOOD..BAD oldest first
  std::string metric;
  stats::better direction = stats::better::lower;  // the metric's (its verdict's label)
  std::string built_as;                            // "defaults", "defaults+CRASH"
  stats::verdict verdict = stats::verdict::inconclusive;  // BAD vs GOOD
  double ratio = 1;
  std::vector<std::pair<std::string, std::string>> tested;  // (commit, verdict or "unbuildable"), in test order
  std::optional<std::size_t> first_bad;                     // index into the range
  std::string first_bad_subject;
  std::vector<std::size_t> candidates;       // when the search could not narrow it to one
  std::vector<default_flip> flips;           // defaults the first bad commit flipped (design §5)
  std::vector<default_flip> range_flips;     // … and GOOD..BAD as a whole
  bool counts = false;                       // --counts: `mechanisms` is part of the JSON
  std::vector<mechanism_entry> mechanisms;   // the first bad commit's counts vs GOOD
  std::vector<std::string> notes;
  int runs = 0;
  double wall_s = 0;
};

// terminal: the notes, "BAD vs GOOD on METRIC: VERDICT (ratio r)", the first bad commit with its
// subject, flips and mechanism blocks (or the candidates), the range's flips, and the count line;
// json: {experiment, good, bad, metric, variant, verdict, ratio, first_bad, subject, candidates,
// tested, commits, runs, wall_s, defaults_changed, defaults_changed_in_range, mechanisms, notes}.
std::string render(const commit_bisect_result& r, format f);

}  // namespace abtest::report
