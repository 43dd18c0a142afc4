// An experiment's plan: arms, benchmarks, rounds, seed — everything needed to run or resume it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/exec/env_changes.hpp"
#include "harness/sample/slot.hpp"
#include "harness/stats/metric_policy.hpp"

namespace abtest {

struct arm_plan {
  std::string key;                                // variant key, e.g. "A1=4+B1"
  std::map<std::string, std::string> levels;      // non-off levels
  std::string role;                               // "baseline" or "candidate"
  std::filesystem::path bin;                      // what {bin} stands for; empty when simulated
  std::string binaries_digest;                    // binaries + env: equal digests = the same program
  std::optional<int64_t> build_id;
  std::map<std::string, std::filesystem::path> programs;  // target → file, where the build put it
  exec::env_changes env;                          // from `env` toggles, for the benchmark processes (nullopt: unset)
  // With --layouts: which of the variant's K relinked layouts this arm runs (0-based) and the seed
  // of its section order; −1 for the build's own link. Arms of one variant share `key`.
  int layout = -1;
  std::uint64_t layout_seed = 0;
};

struct run_plan {
  std::string kind = "run";                       // run, matrix, bisect, nightly, noise-floor
  std::vector<arm_plan> arms;                     // arms[0] is the baseline
  std::vector<std::string> benchmarks;            // names, in manifest order
  std::map<std::string, std::string> params;
  int rounds = 10;                                // fixed n, or the cap with adaptive
  // Shown only: the most rounds an experiment that grows `rounds` one at a time (the search oracle's
  // adaptive comparisons) may reach; 0 when `rounds` is final. Progress reads "round r/≤cap".
  int round_cap = 0;
  bool adaptive = false;
  int min_rounds = 10;
  int warmups = 1;                                // per arm and benchmark, recorded, not analysed
  uint64_t seed = 0;
  double margin = 0.01;
  std::string pin;
  std::string simulate;                           // scenario file: replaces build + run by the model
  std::vector<std::string> monitor_metrics;       // adaptive: metrics that must all be decisive
  // Layout randomization (design §6): each variant runs as `layouts` arms, one per seeded link;
  // arms[0 .. layouts-1] are the baseline's. 0: off (one arm per variant, the build's own link).
  int layouts = 0;
  // Duet (design §6): the baseline's and the candidate's invocations of a benchmark run at the same
  // time, each pinned to its own core, swapping cores every round. Exactly two variants.
  bool duet = false;
  // The manifest's `better` / `margin` declarations (design §4), kept with the plan so
  // that a stored experiment re-analysed later (compare, report) judges each metric the same way.
  std::vector<stats::metric_rule> metric_rules;

  // The direction and margin `metric` is judged by: the rules, else inferred, else lower and `margin`.
  stats::metric_policy policy(const std::string& metric) const;

  nlohmann::json to_json() const;
  static run_plan from_json(const nlohmann::json& j);
};

// The randomized order of one round (RMIT): every (arm, benchmark) once, shuffled by a generator
// seeded from (seed, round, warmup) so a resumed experiment replays exactly the same order.
std::vector<slot> round_slots(const run_plan& plan, int round, bool warmup);

// The arms of each variant, in plan order: [[0], [1], …] without layouts, [[0..K-1], [K..2K-1], …]
// with K layouts. Groups are what verdicts compare: group 0 is the baseline.
std::vector<std::vector<int>> variant_groups(const run_plan& plan);

// The duet's balanced schedule: the cores swap every round and the arm that starts first every two
// rounds, so each block of four rounds holds all four combinations, and rounds 2k−1 and 2k — a swap
// pair — share the start order with the cores swapped (the analysis fits the pairs' means,
// stats/crossover.hpp). run_duet puts its first invocation on the first core in even rounds.
inline bool duet_baseline_starts_first(int round) { return ((round - 1) / 2) % 2 == 0; }
inline bool duet_baseline_on_first_core(int round) { return (round % 2 == 0) == duet_baseline_starts_first(round); }
inline int duet_swap_pair(int round) { return (round - 1) / 2; }

// The rounds a duet runs for `requested`: whole blocks of four, and at least three of them. The
// fit (stats/crossover.hpp) takes the mean and the start order from the swap pairs' means, so 8
// rounds would leave it 2 degrees of freedom (t = 4.3 for 95%); 12 leave 4 (t = 2.8), 16 leave 6.
inline int duet_rounds(int requested) { return requested <= 12 ? 12 : requested + (4 - requested % 4) % 4; }

// The duet partner of each arm in a plan with two variants: arm i of the baseline runs beside arm i
// of the candidate (layout k beside layout k). Throws std::invalid_argument otherwise.
int duet_partner(const run_plan& plan, int arm);

}  // namespace abtest
