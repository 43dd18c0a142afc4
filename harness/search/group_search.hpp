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
// caller's own comparison at the reporting margin). A subset T is
// "bad" when from + T vs from has the direction's verdict under `margin`, "good" when it is SAME or the opposite,
// "unknown" when INCONCLUSIVE after the session's retry (git bisect's skip). Recursion on a set S
// known (or, after an unknown, assumed) bad, with a context C of factors kept on:
//   split S into halves H1, H2 and test H1 ∪ C and H2 ∪ C;
//   bad halves are searched independently (several culprits); a single bad half alone is searched;
//   both good → the effect needs factors from both halves (an interaction): as in ddmin
//   (Zeller & Hildebrandt 2002), find the needed part A of H1 with H2 kept on, then the needed part
//   of H2 with A kept on, and report A ∪ B as one culprit set;
//   a set of one factor known bad is a culprit; one reached only through unknowns is unresolved.
// With one culprit among k factors this costs 2⌈log2 k⌉ comparisons (memoised in the session).
// Noisy splitting in the sense of Karp & Kleinberg (2007); group testing: Du & Hwang (2000).
group_outcome group_search(search_session& session, const levels& from, const std::vector<factor>& factors,
                           const comparison& overall, double margin);

}  // namespace abtest::search
