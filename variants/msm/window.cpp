// Window-size model for Pippenger and the D4 policy that applies it per MSM or once per proof.
#include "msm/window.hpp"

#include <cmath>
#include <numeric>

#include "abtest/toggles/d4.hpp"
#include "msm/msm.hpp"
#include "msm/pippenger.hpp"

namespace zk {

// Cost of one MSM with window c, in field multiplications: every window adds each point into a
// bucket with a mixed XYZZ addition (madd-2008-s, 8M + 2S ≈ 10M), then reduces its 2^(c−1)
// buckets with 2·2^(c−1) general additions (add-2008-s, 12M + 2S ≈ 14M), plus c doublings.
// Minimising nwins(c)·(10·n + 14·2^c) gives c ≈ log₂ n − log₂ log₂ n + small, the usual rule.
unsigned msm_window_bits(size_t npoints) {
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned c = 1; c <= 20; ++c) {
    const double cost = detail::msm_nwins(c) * (10.0 * static_cast<double>(npoints) + 14.0 * std::ldexp(1.0, static_cast<int>(c)));
    if (c == 1 || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

msm_window_policy default_msm_window_policy() {
  return ABTEST_D4_MSM_WINDOW ? msm_window_policy::per_msm : msm_window_policy::shared;
}

unsigned msm_window_for(msm_window_policy policy, size_t npoints, std::span<const size_t> all_npoints) {
  if (policy == msm_window_policy::per_msm || all_npoints.empty()) return msm_window_bits(npoints);
  const size_t total = std::accumulate(all_npoints.begin(), all_npoints.end(), size_t{0});
  return msm_window_bits(total / all_npoints.size());
}

const char* to_string(msm_window_policy policy) {
  return policy == msm_window_policy::per_msm ? "per_msm" : "shared";
}

}  // namespace zk
