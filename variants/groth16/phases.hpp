// The prover's phases as prove_batch (prover.cpp) runs them — internal to zk::groth16.
//
// prove_batch checks the shapes, runs H and the five MSMs of every partition on one backend
// (msm_cpu.cpp or msm_gpu.cpp; H itself is quotient.cpp), then assembles the proofs. The MSM
// phases gather each partition's scalars (scalars.cpp) in the queries' layout (parameters.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <span>
#include <vector>

#include "ec/curves.hpp"
#include "groth16/parameters.hpp"
#include "groth16/prover.hpp"
#include "msm/msm.hpp"

namespace zk::groth16::detail {

using clock_type = std::chrono::steady_clock;

inline double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// The scalars of one partition for each query, in the queries' layout (parameters.hpp).
struct partition_scalars {
  std::vector<scalar_t> h, l, a, b;
};

// Every scalar vector but H's, which the quotient phase fills in. Throws std::invalid_argument when
// the A/B densities do not match the parameters; `index` names the partition in the message.
partition_scalars gather(const parameters& p, const assignment_view& w, unsigned nthreads, size_t index);

// The five MSMs of every partition.
struct msm_results {
  std::vector<g1_jacobian> h, l, a, b_g1;
  std::vector<g2_jacobian> b_g2;
  explicit msm_results(size_t k) : h(k), l(k), a(k), b_g1(k), b_g2(k) {}
};

// H (compute_h) and the five MSMs of every partition on the CPU: windows as opt.window says (D4),
// the B_G2 MSMs as opt.bg2 says (A4). Adds each phase's seconds and the windows that ran to `t`.
msm_results msms_on_cpu(const parameters& p, std::span<const assignment_view> parts, const prover_options& opt,
                        prover_timings& t);

// H's NTTs (compute_h_gpu) and the G1 MSMs on the device, the B_G2 MSMs on CPU threads overlapping
// them (A4 says how). Adds to `t` as msms_on_cpu does, plus the device's stages and what B1 did.
// Throws gpu_error.
msm_results msms_on_gpu(const parameters& p, std::span<const assignment_view> parts, const prover_options& opt,
                        prover_timings& t);

}  // namespace zk::groth16::detail
