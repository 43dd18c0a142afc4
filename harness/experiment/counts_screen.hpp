// Bisect's first screen in Valgrind's exact counts (design §6): toggles with which no count moves
// are not timed, and each term's mechanism block (`from` with the term vs `from`).
//
//   const arm_counter count = [&](const std::vector<arm_plan>& arms, const std::string& role) {
//     return oracle.run_arms(arms, 0, "bisect", {{"role", role}}).experiment_id;   // counted, not timed
//   };
//   counts_screen s = screen_counts(store, {search_toggles(m), from, to, from_arm, "proof"}, arms, count, exclude, notes);
//   ... search without `exclude` ...
//   count_interactions(store, request, arms, count, split, s);   // the blocks of the culprit pairs
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/core/plan.hpp"
#include "harness/counts/mechanism.hpp"
#include "harness/search/toggle_bisect.hpp"
#include "harness/search/toggle_spec.hpp"

namespace abtest {

struct counts_screen {
  std::string experiment;                           // the screen's counting experiment ("" when nothing differed)
  std::vector<std::string> not_timed;               // toggle ids
  std::map<std::string, counts::mechanism> blocks;  // term ("A1=4", "PAIR1*PAIR2") → `from` with it vs `from`
  std::map<std::string, search::factor> factors;    // by name ("A1=4"): what a term sets
};

// What the screen compares: the two ends of the bisection and the benchmark whose counts decide.
struct screen_request {
  std::vector<search::toggle_spec> toggles;  // the manifest's (search_toggles)
  search::levels from, to;
  arm_plan from_arm;                         // `from`, built: the baseline of every count
  std::string benchmark;                     // the searched metric's benchmark
};

// Builds (or stands in) the arm of a configuration; nullopt when it does not build.
using screen_arms = std::function<std::optional<arm_plan>(const search::levels&)>;
// Counts `arms` (arms[0] the baseline) under Valgrind as one experiment whose counts are then in
// the store, and returns its id; `role` ("counts-screen", "counts-term") goes into its config.
using arm_counter = std::function<std::string(const std::vector<arm_plan>& arms, const std::string& role)>;

// `from`, `to`, and for each toggle that differs (less `exclude`) `from` with it and `to` without it
// are counted once, as one experiment. A toggle with which no count moves at either end
// (counts::moved_counts) is not timed: appended to `exclude`, its binaries differ but not the work
// they do. Both ends, so that a toggle acting only together with another one is still timed. A
// configuration that does not build, or a count that failed, leaves its toggle timed. Never a
// verdict, and blind to what Valgrind cannot see (GPU work, waiting, threads contending). One line
// goes to `notes`: what was left out, or that every toggle moved a count.
counts_screen screen_counts(db::results_store& store, const screen_request& q, const screen_arms& arms, const arm_counter& count,
                            std::vector<std::string>& exclude, std::vector<std::string>& notes);

// An interaction's block needs the configuration with all of its toggles, which the screen did not
// count: each culprit or offset pair of `split` without a block is counted now against `from` (one
// more Valgrind run each; `from` is reused) and its block added to `screen`.
void count_interactions(db::results_store& store, const screen_request& q, const screen_arms& arms, const arm_counter& count,
                        const search::attribution& split, counts_screen& screen);

// The mechanism block of a term, when it was counted (empty otherwise).
std::vector<const counts::mechanism*> term_blocks(const search::culprit& c, const counts_screen& screen);

}  // namespace abtest
