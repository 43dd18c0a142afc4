// What a bisection costs in builds, runs and wall time: the plan chosen by expected cost, and the full factorial it is weighed against.
#pragma once

#include <cmath>
#include <string>
#include <vector>

namespace abtest::search {

// The unit prices a plan is made from: one configuration built, one benchmark run, and the noise of
// one run's log value (σ; a paired difference has sd √2·σ). Where they came from is said in `basis`.
struct unit_costs {
  double build_s = 0.0;                // wall of one build (recorded builds' median; 0 when none)
  double run_s = 0.0;                  // wall of one benchmark invocation
  double sigma = std::log1p(0.02);     // sd of ln(value) of one run (2% noise unless measured)
  std::string basis = "defaults";      // e.g. "builds: median of 12 recorded; noise: noise-floor f-…"
};

struct price {
  long long runs = 0;
  long long builds = 0;
  double wall_s = 0.0;  // builds · build_s + runs · run_s
};
price priced(long long builds, long long runs, const unit_costs& u);

enum class design_choice { automatic, full, half, group };
// "auto" | "full" | "half" | "group" (`--design`); std::invalid_argument otherwise.
design_choice parse_design_choice(const std::string& text);
std::string to_string(design_choice d);

struct plan_options {
  design_choice design = design_choice::automatic;
  double margin = 0.02;  // the smallest effect the search must find (ln(1 + margin))
  double alpha = 0.05;
  double power = 0.9;
  int min_ab_rounds = 10;   // an adaptive A/B's first look (design §7)
  int min_matrix_rounds = 2;  // a matrix's error term is its config × round residual
  int matrix_rounds = 0;    // > 0: the rounds a factorial and each A/B run (--rounds), not planned
};

// One design priced: what it is expected to cost, overall A/B and confirmations of one culprit included.
struct priced_design {
  design_choice design = design_choice::full;
  std::string label;     // "full 2^5", "half 2^(5-1) E=ABCD", "group testing"
  int configs = 0;       // matrix configurations (0 for group testing)
  int rounds = 0;        // matrix rounds (factorial) or expected rounds per comparison (group)
  price expected;
};

struct search_plan {
  priced_design chosen;
  std::vector<priced_design> alternatives;  // every design that applies, the chosen one included
  std::string reason;                        // "cheapest", "--design half"
};

// The design to run for k differing toggles: a factorial's matrix is sized so that a ±1 effect of
// ln(1 + margin) is found with `power` after Holm over its k + k(k−1)/2 terms (SE = 2σ/√N); a
// comparison of group testing so that a paired A/B finds it at α/(2⌈log2 k⌉). Group testing is priced
// for one culprit: 1.5 comparisons per halving level (group_search.hpp). The cheapest in wall time
// wins (in runs, then builds, when the unit costs are unknown); full factorials up to k = 16, the
// half (resolution-V) fraction for 5 ≤ k ≤ 8 (below 5 it is the full one). A forced design that does
// not apply to k throws std::invalid_argument. k ≥ 1.
// Auto considers group testing only from this many toggles (a forced --design group runs at k ≥ 2).
inline constexpr int group_testing_from = 7;
search_plan plan_search(int k, const unit_costs& u, const plan_options& o);

// The full 2^k factorial that estimates a term with the CI half-width `half_width` (at 95%): the
// term's SE is c·σ/√N over N runs, so N = ⌈(1.96 · c · σ / half_width)²⌉, rounded up to whole rounds
// of 2^k configurations, at least min_rounds of them; its runs, 2^k builds and wall. c is 2 for an
// effect in ±1 coding (design §7: SE = 2σ/√N) and for a lone main effect in 0/1 coding; a main
// effect re-fitted beside its pair is a cell contrast, and its c is larger (2√2 with one pair).
// Saturates for k > 40.
price full_factorial_at(int k, double half_width, const unit_costs& u, int min_rounds = 2, double se_factor = 2.0);

}  // namespace abtest::search
