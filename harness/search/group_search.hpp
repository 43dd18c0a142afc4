// Adaptive group testing over many toggles: noisy binary splitting with a ddmin step for interactions.
#pragma once

#include <vector>

#include "harness/search/oracle.hpp"
#include "harness/search/toggle_spec.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::search {

struct group_culprit {
  std::vector<int> factors;  // indices into the factor list; more than one = needed together
  comparison evidence;       // from + these factors vs from
};

struct group_outcome {
  std::vector<group_culprit> culprits;
  std::vector<int> unresolved;  // factors whose subsets stayed INCONCLUSIVE after a retry
};

// `overall` is from + all factors vs from; its verdict is the direction searched (nothing is searched
// unless it is slower or faster; SLOWER/FASTER do not depend on the margin, so it can come from the
// caller's own comparison at the reporting margin). Each subset T is compared (from + T vs from) at
// error level `alpha` and is "bad" with the direction's verdict; "good" when SAME, the opposite, or
// INCONCLUSIVE with a CI that excludes an effect of `margin` in the searched direction (a one-sided
// conclusion the always-valid CI supports at any stopping time); otherwise asked once more, then
// "unknown" (git bisect's skip). Recursion on a set S known (or inferred) bad, with a context C of
// factors kept on: split S into halves H1, H2 and test H1 ∪ C;
//   H1 bad → search H1, then test H2 ∪ C and search it too if bad (several culprits);
//   H1 not bad → H2 ∪ C is inferred bad without a test (one comparison saved per level) and searched;
//   a single factor is always measured, so a wrong inference shows up at the leaf and is sent back to
//   the nearest measured ancestor, which then tests H2: bad → search it; good with H1 good → the effect
//   needs factors from both halves (an interaction): as in ddmin (Zeller & Hildebrandt 2002), find the
//   needed part A of H1 with H2 kept on, then the needed part B of H2 with A kept on, prune A ∪ B to
//   1-minimal (a member without which the rest still reproduces the effect is dropped, down to a
//   pair) and report it as one culprit set; otherwise the set is unresolved.
// With one culprit among k factors this costs between ⌈log2 k⌉ and 2⌈log2 k⌉ comparisons, 1.5 per level
// on average (memoised in the session).
// Noisy splitting in the sense of Karp & Kleinberg (2007); group testing: Du & Hwang (2000).
group_outcome group_search(search_session& session, const levels& from, const std::vector<factor>& factors,
                           const comparison& overall, double margin, double alpha);

}  // namespace abtest::search
