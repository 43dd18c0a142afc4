// Fixed-base scalar multiplication of one point by many scalars (the setup's bulk work).
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ec/curves.hpp"
#include "ec/parallel_for.hpp"
#include "ff/fr.hpp"

namespace zk::groth16 {

// out[i] = scalars[i]·base. A table of d·2^(8w)·base for the 32 byte positions w and digits
// d < 256 (8160 affine points) turns each multiplication into ≤ 32 mixed additions, instead of
// 255 doublings and ~128 additions (the windowed fixed-base method, Handbook of Applied
// Cryptography §14.6.3). Points are converted to affine in chunks with one inversion each.
template <class A>
std::vector<A> fixed_base_mul(const A& base, std::span<const fr> scalars, unsigned nthreads) {
  using J = jacobian_t<typename A::field, typename A::curve>;
  constexpr size_t nwin = 32, ndig = 256;
  std::vector<J> table_j(nwin * ndig, J::identity());
  J row = J::from_affine(base);  // 2^(8w)·base
  for (size_t w = 0; w < nwin; ++w) {
    J acc = J::identity();
    for (size_t d = 0; d < ndig; ++d) {
      table_j[w * ndig + d] = acc;
      acc += row;
    }
    row = acc;  // 256·2^(8w)·base
  }
  std::vector<A> table(table_j.size());
  batch_to_affine<J>(table_j, table);

  std::vector<A> out(scalars.size());
  constexpr size_t chunk = 1024;
  parallel_for((scalars.size() + chunk - 1) / chunk, nthreads, [&](size_t t) {
    const size_t begin = t * chunk, end = std::min(scalars.size(), begin + chunk);
    std::vector<J> tmp(end - begin);
    for (size_t i = begin; i < end; ++i) {
      uint64_t k[4];
      scalars[i].to_canonical(k);
      J acc = J::identity();
      for (size_t w = 0; w < nwin; ++w) {
        const size_t d = (k[w / 8] >> (8 * (w % 8))) & 0xff;
        if (d != 0) acc += table[w * ndig + d];
      }
      tmp[i - begin] = acc;
    }
    batch_to_affine<J>(tmp, std::span<A>(out).subspan(begin, end - begin));
  });
  return out;
}

}  // namespace zk::groth16
