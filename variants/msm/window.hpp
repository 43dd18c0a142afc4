// How the prover picks Pippenger windows for a proof's MSMs: one shared size, or one per MSM (D4).
#pragma once

#include <cstddef>
#include <span>

namespace zk {

enum class msm_window_policy {
  shared,   // D4 off: every MSM of the proof uses the window sized for their average length
  per_msm,  // D4 on: each MSM uses msm_window_bits(its own length)
};

// The build's default, from ABTEST_D4_MSM_WINDOW (abtest/toggles/d4.hpp).
msm_window_policy default_msm_window_policy();

// The window for an MSM of `npoints` under `policy`, given the lengths of all the proof's MSMs.
unsigned msm_window_for(msm_window_policy policy, size_t npoints, std::span<const size_t> all_npoints);

const char* to_string(msm_window_policy policy);

}  // namespace zk
