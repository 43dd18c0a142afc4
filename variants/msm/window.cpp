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
//
// Measured (G1, one thread, in units of one Fp multiplication timed beside each run, because the
// shared 2-core build host was loaded ~4× over; two runs each, millions of Fp-mul equivalents):
//   n = 2^10: c 5: 0.59 0.53 | 6: 0.50 0.59 | 7: 0.41 0.42 | 8: 0.47 0.41 | 9: 0.44 0.44   model: 8
//   n = 2^12: c 6: 1.79 1.96 | 7: 1.60 1.84 | 9: 1.47     | 10: 1.43    | 11: 1.41         model: 9
//   n = 2^14: c 10: 5.41 5.15 | 11: 4.71 4.51 | 12: 4.39 4.40 | 13: 5.10 5.12             model: 11
//   n = 2^16: c 11: 17.5 17.3 | 12: 21.7 15.7 | 13: 13.8 17.5 | 14: 18.1 16.2             model: 13
// The model's pick is within ~5% of the best measured window (within the noise at 2^16), while a
// window 3 bits off costs 20–40% — the spread D4's shared window exposes for the proof's mix of
// MSM sizes. A batch-affine bucket accumulation was tried and was 10–20% slower here: with the
// Fermat inversion of zk::ff (~570 multiplications) its shared inversion does not pay.
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
