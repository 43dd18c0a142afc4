// The "mechanism" of a verdict: which counts moved between two arms and in which functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/counts/count_set.hpp"

namespace abtest::counts {

// One total of the two arms. Counts are compared exactly: moved means delta ≠ 0.
struct count_change {
  std::string name;                 // "Ir", "D1mr", "alloc_blocks", …
  count base = 0, candidate = 0;
  std::int64_t delta = 0;           // candidate − base
  std::optional<double> relative;   // delta / base; nullopt when base is 0
};

// One function's change, cg_diff-style (candidate − base, the function absent on one side = 0).
struct function_change {
  std::string name;
  std::string file;                 // the candidate's, else the base's
  count base = 0, candidate = 0;    // of the ranking event (mechanism::rank_by)
  std::int64_t delta = 0;
  std::optional<double> relative;
  std::map<std::string, std::int64_t> event_deltas;  // every event that moved in this function
};

// One allocation site's change (DHAT), matched by its `where`.
struct site_change {
  std::string where;
  std::int64_t delta_blocks = 0, delta_bytes = 0;
  count base_bytes = 0, candidate_bytes = 0;
};

struct mechanism {
  std::string base_label, candidate_label;  // "base", "A1=4" — set by the caller
  std::string rank_by = "Ir";               // the event functions are ranked by
  std::string region;                       // the candidate's counted region; empty: whole program
  std::vector<count_change> moved;          // the compared totals that moved, in the order compared
  std::vector<std::string> unchanged;       // the compared totals that did not
  std::vector<std::string> missing;         // compared totals absent from one arm (not measured)
  std::vector<function_change> functions;   // the top functions by |Δ rank_by|
  std::vector<site_change> alloc_sites;     // the top sites by |Δ bytes|
  bool comparable = true;                   // false: caches, Valgrind version or region differ
  std::string incomparable_reason;
};

struct diff_options {
  std::string rank_by = "Ir";
  std::size_t top_functions = 10;
  std::size_t top_sites = 5;
  // Compare only the headline counts (Ir, D1mr, LLmr, Bcm, alloc_blocks, alloc_bytes); false: every
  // total of either arm, headline counts first, then the rest by name.
  bool headline_only = true;
  // Like cg_diff's --mod-funcname: ECMAScript regex → replacement rewrites applied in order to
  // every function and allocation-site name of both arms before they are matched; names that
  // become equal are summed. {"<[0-9]+ul>", "<N>"} pairs zk::r1cs::indexer<0ul>::add in the base
  // with indexer<4ul>::add in A1=4, where a template argument is what the toggle changes.
  std::vector<std::pair<std::string, std::string>> rename = {};
};

// The mechanism block of `candidate` against `base`. Pure and deterministic: ties in |Δ| are broken
// by name. Functions and sites whose ranking count did not move are not listed. Counts measured
// under different simulated caches, Valgrind versions or regions are still diffed, but
// `comparable` is false. Throws std::regex_error for a bad `rename` pattern.
//
//   mechanism m = diff_counts(base_counts, a1_counts);
//   m.base_label = "base"; m.candidate_label = "A1=4";
//   std::cout << format_terminal(m);   // mechanism_format.hpp
mechanism diff_counts(const count_set& base, const count_set& candidate, const diff_options& options = {});

}  // namespace abtest::counts
