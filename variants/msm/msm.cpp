// The G1 and G2 instantiations of the Pippenger MSM, and scalar conversion.
#include "msm/msm.hpp"

#include "ec/parallel_for.hpp"
#include "msm/pippenger.hpp"

namespace zk {

std::vector<scalar_t> to_scalars(std::span<const fr> xs, unsigned nthreads) {
  std::vector<scalar_t> out(xs.size());
  const size_t chunk = 4096;
  parallel_for((xs.size() + chunk - 1) / chunk, nthreads, [&](size_t t) {
    for (size_t i = t * chunk; i < std::min(xs.size(), (t + 1) * chunk); ++i) xs[i].to_canonical(out[i].data());
  });
  return out;
}

g1_jacobian msm(std::span<const g1_affine> points, std::span<const scalar_t> scalars, const msm_options& opt) {
  return detail::pippenger(points, scalars, opt);
}

g2_jacobian msm(std::span<const g2_affine> points, std::span<const scalar_t> scalars, const msm_options& opt) {
  return detail::pippenger(points, scalars, opt);
}

}  // namespace zk
