// Multi-scalar multiplication Σ kᵢ·Pᵢ over G1 and G2: Pippenger's bucket method, multi-threaded.
//
//   std::vector<zk::scalar_t> k = zk::to_scalars(frs);          // canonical form, once per vector
//   zk::g1_jacobian acc = zk::msm(points, k, {.wbits = 0, .nthreads = 0});  // 0 = auto
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fr.hpp"

namespace zk {

// A scalar in canonical (not Montgomery) form, 4 little-endian limbs, < r.
using scalar_t = std::array<uint64_t, 4>;

// Montgomery → canonical, on up to `nthreads` threads (0 = all).
std::vector<scalar_t> to_scalars(std::span<const fr> xs, unsigned nthreads = 0);

struct msm_options {
  unsigned wbits = 0;     // Pippenger window bits, 1…20; 0 = msm_window_bits(npoints)
  unsigned nthreads = 0;  // 0 = all cores; 1 = run on the calling thread only
};

// The window that minimises the modelled cost of one MSM of npoints points (msm/window.cpp).
unsigned msm_window_bits(size_t npoints);

// Σ scalars[i]·points[i]; the spans must have the same length. Identity points and zero scalars
// are allowed. Throws std::invalid_argument on mismatched lengths or wbits outside 1…20.
g1_jacobian msm(std::span<const g1_affine> points, std::span<const scalar_t> scalars,
                const msm_options& opt = {});
g2_jacobian msm(std::span<const g2_affine> points, std::span<const scalar_t> scalars,
                const msm_options& opt = {});

}  // namespace zk
