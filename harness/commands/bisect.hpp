// What the two searches of `abtest bisect` share: its flags (the parent experiment that records a
// search is experiment/search_parent.hpp's). Toggles: bisect.cpp; commits:
// bisect_commits.cpp.
#pragma once

#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/plan.hpp"
#include "harness/experiment/oracle.hpp"

namespace abtest::cli {

struct bisect_flags {
  std::string from = "base", to = "all", metric, commits;
  std::vector<std::string> toggles;
  // --rounds (0: adaptive comparisons and a 6-round matrix), --margin, --param, --simulate, --seed, --jobs
  measurement_flags measure{.rounds = 0};
  evidence_flags evidence;  // --layouts, --duet, --counts, --pin: for every comparison of the search
  std::string design = "auto";  // --design auto|full|half|group (search::plan_search)
  // --budget-s: wall seconds from the start after which a toggle search starts no new step and ends
  // with what it has decided (0: none). Ctrl-C does the same at once.
  double budget_s = 0.0;
};

// The flags checked (check_evidence) and copied into the oracle's settings; `warmups` are the
// benchmark's. Usage errors (exit 2) before anything is built.
void apply_evidence(const bisect_flags& f, bool simulated, int warmups, oracle_settings& s);

double seconds_since(std::chrono::steady_clock::time_point t0);

// `abtest bisect --commits GOOD..BAD`: the first commit slower than GOOD (exit 1 when BAD is).
int bisect_commits_command(const bisect_flags& f, const global_options& g);

}  // namespace abtest::cli
