// Jacobian → affine for many points with one inversion (Montgomery's trick).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace zk {

// out[i] = in[i] as affine; out.size() must equal in.size(). Cost: 1 inversion + ~6M per point.
template <class J>
void batch_to_affine(std::span<const J> in, std::span<typename J::affine> out) {
  using F = typename J::field;
  std::vector<F> prefix(in.size());
  F acc = F::one();
  for (size_t i = 0; i < in.size(); ++i) {
    prefix[i] = acc;
    if (!in[i].is_identity()) acc *= in[i].z;
  }
  F inv = acc.inverse();
  for (size_t i = in.size(); i-- > 0;) {
    if (in[i].is_identity()) {
      out[i] = J::affine::identity();
      continue;
    }
    const F zi = inv * prefix[i];  // 1/Z_i
    inv *= in[i].z;
    const F zi2 = zi.sqr();
    out[i] = {in[i].x * zi2, in[i].y * zi2 * zi, false};
  }
}

}  // namespace zk
