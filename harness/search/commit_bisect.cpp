// Midpoint commit bisection with skips.
#include "harness/search/commit_bisect.hpp"

#include <set>
#include <stdexcept>

namespace abtest::search {

commit_bisect_result bisect_commits(std::size_t count, const std::function<commit_state(std::size_t)>& test) {
  if (count < 2) {
    throw std::invalid_argument("error: bisection needs a good and a bad commit — pass GOOD..BAD with GOOD older");
  }
  commit_bisect_result out;
  std::size_t good = 0;
  std::size_t bad = count - 1;
  std::set<std::size_t> skipped;
  while (bad - good > 1) {
    // The untested commit strictly inside (good, bad) nearest the midpoint, lower one first on a tie.
    const std::size_t mid = good + (bad - good) / 2;
    std::size_t pick = 0;
    bool any = false;
    for (std::size_t dist = 0; !any && dist < bad - good; ++dist) {
      for (const std::size_t c : {mid - std::min(dist, mid), mid + dist}) {
        if (!any && c > good && c < bad && !skipped.contains(c)) {
          pick = c;
          any = true;
        }
      }
    }
    if (!any) break;
    out.tested.push_back(pick);
    switch (test(pick)) {
      case commit_state::good: good = pick; break;
      case commit_state::bad: bad = pick; break;
      case commit_state::skip: skipped.insert(pick); break;
    }
  }
  if (bad - good == 1) {
    out.found = true;
    out.first_bad = bad;
    return out;
  }
  for (std::size_t c = good + 1; c <= bad; ++c) out.candidates.push_back(c);
  return out;
}

}  // namespace abtest::search
