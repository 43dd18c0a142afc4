// Random G1 points and scalars for the GPU tests and gpu-bench: many points fast, on all cores.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ec/curves.hpp"
#include "ec/parallel_for.hpp"
#include "ff/fr.hpp"
#include "msm/msm.hpp"

namespace zk::gpu {

// n points in chunks of 4096: chunk t walks Bₜ, Bₜ + S, Bₜ + 2S, … from a random multiple Bₜ of the
// generator with a random step S (one scalar multiplication per chunk, not per point), then one
// batch inversion per chunk. Distinct with overwhelming probability; deterministic for a seed.
inline std::vector<g1_affine> random_points(size_t n, uint64_t seed) {
  constexpr size_t chunk = 4096;
  std::vector<g1_affine> out(n);
  const size_t nchunks = (n + chunk - 1) / chunk;
  parallel_for(nchunks, 0, [&](size_t t) {
    std::mt19937_64 rng(seed ^ (0x9e3779b97f4a7c15ULL * (t + 1)));
    scalar_t k;
    fr::random(rng).to_canonical(k.data());
    g1_jacobian p = scalar_mul(g1_jacobian::from_affine(g1_generator()), k.data(), 4);
    fr::random(rng).to_canonical(k.data());
    const g1_affine step = scalar_mul(g1_jacobian::from_affine(g1_generator()), k.data(), 4).to_affine();
    const size_t begin = t * chunk, end = std::min(n, begin + chunk);
    std::vector<g1_jacobian> jac(end - begin);
    for (auto& j : jac) {
      j = p;
      p += step;
    }
    batch_to_affine<g1_jacobian>(jac, std::span(out).subspan(begin, end - begin));
  });
  return out;
}

// n uniform Fr elements, in chunks of 2^16 with a generator each (2^26 of them in seconds on all
// cores); deterministic for a seed.
inline std::vector<fr> random_frs(size_t n, uint64_t seed) {
  constexpr size_t chunk = size_t{1} << 16;
  std::vector<fr> out(n);
  parallel_for((n + chunk - 1) / chunk, 0, [&](size_t t) {
    std::mt19937_64 rng(seed ^ (0xbf58476d1ce4e5b9ULL * (t + 1)));
    for (size_t i = t * chunk, end = std::min(n, i + chunk); i < end; ++i) out[i] = fr::random(rng);
  });
  return out;
}

inline std::vector<scalar_t> random_scalars(size_t n, uint64_t seed) { return to_scalars(random_frs(n, seed)); }

}  // namespace zk::gpu
