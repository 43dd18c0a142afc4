// Two-sided tabular CUSUM for the latest night (see cusum.hpp).
#include "harness/changepoint/cusum.hpp"

#include <algorithm>

#include "harness/stats/descriptive.hpp"

namespace abtest::changepoint {

cusum_result cusum_latest(const std::vector<double>& x, std::size_t start, const cusum_options& o) {
  cusum_result r;
  if (x.size() <= start + o.min_reference) return r;
  r.since = std::max(start + o.min_reference, x.size() > o.window ? x.size() - o.window : 0);
  const std::vector<double> ref(x.begin() + static_cast<std::ptrdiff_t>(start), x.begin() + static_cast<std::ptrdiff_t>(r.since));
  const double mu = stats::median(ref), sigma = 1.4826 * stats::mad(ref);
  if (!(sigma > 0)) return r;
  for (std::size_t i = r.since; i < x.size(); ++i) {
    const double z = (x[i] - mu) / sigma;
    r.upper = std::max(0.0, r.upper + z - o.k);
    r.lower = std::max(0.0, r.lower - z - o.k);
  }
  r.state = r.upper > o.h ? alarm::slower : r.lower > o.h ? alarm::faster : alarm::none;
  return r;
}

}  // namespace abtest::changepoint
