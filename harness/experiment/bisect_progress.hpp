// A bisection's step lines: which step of the search it is on out of about how many, what it
// tests against what, the culprits found so far and about how long is left —
//   "step 3/≈7 · testing {CACHE, INLINE} vs base · culprits so far: LIT, DFA · ≈2m00s left", or,
//   once the search has priced what it has left at the seconds its configurations' runs take,
//   "step 2/≈4 · factorial matrix of 16 configurations · culprits so far: DFA 19.30× · ≤ 13 min left".
//
//   bisect_progress p(ctx, specs, differing_factors(specs, from, to, exclude).size(), 6);
//   oracle.set_listener(p.listener());
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "harness/experiment/context.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/search/toggle_spec.hpp"

namespace abtest {

// What one step line says.
struct bisect_step_line {
  int step = 0;                       // 1-based
  int expected = 0;                   // about how many steps in all (≥ step)
  std::vector<std::string> tested;    // the toggles the step changes, as terms: "CACHE", "A1=4", "-LIT" (turned off)
  std::string against;                // the variant they are changed from: "base"
  std::size_t matrix_configs = 0;     // > 0: the step is the factorial matrix of this many configurations
  std::vector<std::string> culprits;  // found so far
  std::optional<double> left_s;       // about how long is left; nullopt before the first step ends
  // left_s is the search's own worst case (the sequential design's remaining most, at the seconds
  // each configuration's runs took): shown as "≤ N min left" rather than "≈… left".
  bool worst_case = false;
};
// Sets of more than six toggles and keys over 40 characters are shortened ("T01, T02, T03, …, T24
// (24)", "A1=4+A2+…").
std::string format_step_line(const bisect_step_line& line);
// Its last part: "≤ 13 min left" (a worst case), "≈2m00s left" or "time left not known yet".
std::string left_text(const bisect_step_line& line);

// About how many comparisons a toggle bisection of `differing` toggles takes when it finds
// `culprits` (at least one is assumed): with a factorial design, the overall A/B, the matrix and two
// confirmations per culprit; with group testing, the overall A/B, about 2⌈log2 k⌉ group comparisons
// per culprit and its two confirmations (search/toggle_bisect.hpp, the plan of search/price.hpp).
enum class search_shape { factorial, group };
int expected_bisect_steps(std::size_t differing, std::size_t culprits, search_shape shape);

// Follows an experiment_oracle through a toggle bisection and reports one `note` line per step
// (context.hpp: its own line in a terminal and in a log). A culprit is "found" when a comparison
// that changes a single toggle comes out the way of the overall comparison (SLOWER for a slowdown):
// a group search's last split or a confirmation.
class bisect_progress {
 public:
  // `differing`: the toggles the search attributes among (differing_factors); `shape`: the design
  // the plan chose.
  bisect_progress(const experiment_context& ctx, std::vector<search::toggle_spec> specs, std::size_t differing, search_shape shape);
  oracle_listener listener();

 private:
  void starts(bisect_step_line line);
  void recorded(const search::levels& from, const search::levels& to, const oracle_step& step);
  std::vector<std::string> changes(const search::levels& from, const search::levels& to) const;
  std::vector<std::string> culprits() const;

  const experiment_context& ctx_;
  std::vector<search::toggle_spec> specs_;
  std::size_t differing_ = 0;
  search_shape shape_ = search_shape::factorial;
  int step_ = 0;
  std::optional<stats::verdict> direction_;  // the overall comparison's, once known
  std::vector<std::string> culprits_;
  // What the search told (search::search_progress): terms decided ("DFA 19.30×") and its worst case
  // of the seconds left, when it was told and the clock then.
  std::vector<std::string> decided_;
  std::optional<double> worst_left_s_;
  search::levels last_from_, last_to_;
  // The matrix being run: its configurations and rounds so far (0 after a comparison), so that the
  // rounds a matrix adds while its terms are undecided read as that step's, not as a new one.
  std::size_t matrix_configs_ = 0;
  int matrix_rounds_ = 0;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace abtest
