// porep-bench batch: the partitions proved as a pipeline — partition i+1 is synthesized on a helper
// thread while partition i is proved; synthesis_s is the summed (overlapped) synthesis time.
#include <chrono>
#include <cstdio>
#include <random>
#include <span>

#include "bench/mode.hpp"
#include "bench/proof_run.hpp"
#include "circuits/sha256_native.hpp"
#include "groth16/pipeline.hpp"

namespace zk::bench {

int mode_batch(int argc, char** argv) {
  return run_proof_mode(argc, argv, "batch", "the partitions of a preset proved as a pipeline (synthesis overlaps proving)",
                        [](const proof_flags&, const proof_job& job, const groth16::prover_options& opt,
                           std::mt19937_64& rng, proof_outcome& out) {
    using clock_type = std::chrono::steady_clock;

    // The digest of circuits::assignment_digest, fed one partition at a time (only two are alive
    // at once here); its time is taken out of total_s.
    circuits::sha256_hasher hasher;
    double digest_s = 0;
    auto synthesize_one = [&](size_t i) {
      // One partition per call: A2's reservation, when built in, covers just this partition.
      return synthesize(job.synth, i, 1);
    };
    auto inspect = [&](size_t, const synthesized& one) {
      const auto d0 = clock_type::now();
      const groth16::assignment_view v = one.view(0);
      for (const std::span<const fr> s : {v.a, v.b, v.c})
        hasher.update({reinterpret_cast<const uint8_t*>(s.data()), s.size() * sizeof(fr)});
      const std::span<const fr> inputs = one.public_inputs(0);
      out.public_inputs.emplace_back(inputs.begin(), inputs.end());
      digest_s += std::chrono::duration<double>(clock_type::now() - d0).count();
    };
    groth16::pipeline_timings pt;
    const auto t0 = clock_type::now();
    out.proofs = groth16::prove_pipelined(job.params, job.synth.partitions(), synthesize_one, inspect, rng, opt, &pt);
    out.total_s = std::chrono::duration<double>(clock_type::now() - t0).count() - digest_s;
    out.synthesis_s = pt.synthesis_s;
    out.prove = pt.prove;
    out.digest = circuits::to_hex(hasher.finish());
  });
}

}  // namespace zk::bench
