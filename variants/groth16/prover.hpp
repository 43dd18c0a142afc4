// The Groth16 prover for a batch of partitions: H by NTTs, the five MSMs, randomizers (A4, D4, B1),
// on the CPU or with the NTTs and G1 MSMs on a CUDA device (zk::gpu).
//
//   std::vector<zk::groth16::assignment_view> views = {zk::groth16::view_of(pa)};
//   zk::groth16::prover_timings t;
//   auto proofs = zk::groth16::prove_batch(params, views, rng, {}, &t);  // toggles' defaults
#pragma once

#include <cstddef>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/parameters.hpp"
#include "groth16/proof.hpp"
#include "msm/window.hpp"
#include "r1cs/density_tracker.hpp"

namespace zk::groth16 {

// How a batch's B_G2 MSMs run (toggle A4).
enum class bg2_mode {
  sequential,  // A4 off: one after another, each with the whole thread pool
  parallel,    // A4 on: one single-threaded Pippenger per partition, side by side, while the
               // other MSMs run on the pool (oversubscribing the cores, as the real change did)
};
// The build's default, from ABTEST_A4_PARALLEL_BG2 (abtest/toggles/a4.hpp).
bg2_mode default_bg2_mode();
const char* to_string(bg2_mode mode);

// What the prover reads of one synthesized partition (a proving_assignment of any A1 level).
struct assignment_view {
  std::span<const fr> a, b, c;
  std::span<const fr> inputs, aux;
  const r1cs::density_tracker* a_aux_density;
  const r1cs::density_tracker* b_input_density;
  const r1cs::density_tracker* b_aux_density;
};

template <class ProvingAssignment>
assignment_view view_of(const ProvingAssignment& pa) {
  return {pa.a, pa.b, pa.c, pa.input_assignment, pa.aux_assignment,
          &pa.a_aux_density, &pa.b_input_density, &pa.b_aux_density};
}

// Where the NTTs and the G1 MSMs run. B_G2 always runs on the CPU (zk::gpu has no G2 MSM).
enum class backend {
  cpu,
  cuda,  // NTTs and G1 MSMs on the device; the B_G2 MSMs on CPU threads, overlapping them
};
const char* to_string(backend b);
// B1's build default (ABTEST_B1_HOST_REGISTER, through zk::gpu::default_host_register()).
bool default_host_register();

// The defaults are the build's toggles (D4, A4, B1); porep-bench's --msm-window and --host-register
// override D4 and B1 at run time, so one build can time both levels.
struct prover_options {
  msm_window_policy window = default_msm_window_policy();
  bg2_mode bg2 = default_bg2_mode();
  unsigned nthreads = 0;  // 0 = all cores
  groth16::backend backend = backend::cpu;
  bool host_register = default_host_register();  // B1, backend::cuda only
};

// Seconds per phase, summed over the batch. With bg2_mode::parallel (or backend::cuda) the B_G2
// MSMs overlap the others, and msm_b_g2_s is the wall time from their launch to the last one's end.
// With backend::cuda, the device's own stages (zk::gpu::timings) are summed over every call into
// host_register_s, transfer_s and gpu_s (kernels); they are parts of ntt_s and msm_*_s.
struct prover_timings {
  double ntt_s = 0, msm_a_s = 0, msm_b_g1_s = 0, msm_b_g2_s = 0, msm_l_s = 0, msm_h_s = 0;
  double host_register_s = 0, transfer_s = 0, gpu_s = 0;
  double transfer_hidden_s = 0, transfer_exposed_s = 0;  // parts of transfer_s: under kernels, and not
  unsigned wbits_h = 0, wbits_l = 0, wbits_a = 0, wbits_b = 0;  // the G1 windows that ran
  bool host_register = false;  // backend::cuda: whether B1 pinned host memory (what ran)
  std::string host_register_error;  // backend::cuda: why a registration B1 asked for failed (copies ran pageable)
};

// A zk::gpu call failed (no device, CUDA error): what() is "gpu: <call>: <status message>".
struct gpu_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One proof per partition; r and s drawn from `rng`. Throws std::invalid_argument when an
// assignment does not match the parameters (other circuit, or not synthesized the same way), and
// gpu_error when backend::cuda cannot run. Both backends give the same proofs for the same rng.
std::vector<proof> prove_batch(const parameters& params, std::span<const assignment_view> partitions,
                               std::mt19937_64& rng, const prover_options& opt = {},
                               prover_timings* timings = nullptr);

// The quotient H(X) = (A(X)·B(X) − C(X))/Z(X): its n − 1 coefficients, by iNTT, coset NTT,
// division by Z = gⁿ − 1 on the coset, coset iNTT (bellman's FFT route).
std::vector<fr> compute_h(const assignment_view& w, size_t domain_size, unsigned nthreads = 0);
// The same H with the NTTs on the device (zk::gpu::ntt) and the division on the CPU; adds the
// device's stages to `t` (host_register_s, transfer_s, gpu_s). Throws gpu_error.
std::vector<fr> compute_h_gpu(const assignment_view& w, size_t domain_size, prover_timings& t,
                              bool host_register = default_host_register());

}  // namespace zk::groth16
