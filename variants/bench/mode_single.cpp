// porep-bench single: one full proof — synthesis of every partition, then the batch prover
// (A4, D4 as built), then verification; each phase timed (design §4 names).
#include <chrono>
#include <cstdio>
#include <random>
#include <span>

#include "bench/mode.hpp"
#include "bench/proof_run.hpp"
#include "groth16/prover.hpp"

namespace zk::bench {

int mode_single(int argc, char** argv) {
  return run_proof_mode(argc, argv, "single", "one full Groth16 proof of a preset: synthesis, H, MSMs, verification",
                        [](const proof_flags&, const proof_job& job, const groth16::prover_options& opt,
                           std::mt19937_64& rng, proof_outcome& out) {
    using clock_type = std::chrono::steady_clock;
    const auto t0 = clock_type::now();
    const synthesized pas = synthesize_all(job.synth);
    const auto t1 = clock_type::now();
    const std::vector<groth16::assignment_view> views = pas.views();
    out.proofs = groth16::prove_batch(job.params, views, rng, opt, &out.prove);
    const auto t2 = clock_type::now();
    out.synthesis_s = std::chrono::duration<double>(t1 - t0).count();
    out.total_s = std::chrono::duration<double>(t2 - t0).count();

    out.digest = pas.digest();
    for (size_t i = 0; i < pas.size(); ++i) {
      const std::span<const fr> inputs = pas.public_inputs(i);
      out.public_inputs.emplace_back(inputs.begin(), inputs.end());
    }
  });
}

}  // namespace zk::bench
