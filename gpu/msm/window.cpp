// The GPU MSM's window model and how a config (D4 policy, explicit wbits) resolves to one window.
#include <cmath>

#include "gpu/api.hpp"
#include "msm/pippenger.hpp"

namespace zk::gpu {

// Cost of one GPU MSM with window c in units of one mixed addition: every window sorts and adds
// all n points (≈ 1.5 per point: the radix sort costs about half an addition per item) and reduces
// its 2^(c−1) buckets with 2 additions each; all of it runs in parallel, so only the ratio matters.
// Buckets also cost memory and reduction latency: c ≤ 18.
// Not yet measured on a device (none was lent when this was written): gpu-bench --wbits-sweep
// prints the time for every window so the constants can be fitted; replace this comment with the figures.
unsigned msm_window_bits(size_t npoints) {
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned c = 1; c <= 18; ++c) {
    const double n = static_cast<double>(npoints);
    const double cost = detail::msm_nwins(c) * (1.5 * n + 2.0 * std::ldexp(1.0, static_cast<int>(c) - 1));
    if (c == 1 || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

unsigned resolve_wbits(const msm_config& config, size_t npoints) {
  if (config.wbits != 0) return config.wbits;
  if (config.window == msm_window_policy::shared && config.shared_npoints != 0)
    return msm_window_bits(config.shared_npoints);
  return msm_window_bits(npoints);
}

}  // namespace zk::gpu
