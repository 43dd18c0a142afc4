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
#include "r1cs/synthesize.hpp"

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
    auto synthesize = [&](size_t i) {
      // One partition per call: A2's reservation, when built in, covers just this partition.
      auto one = r1cs::synthesize_partitions(std::span<const circuits::porep_circuit>(&job.synth.circuits[i], 1),
                                             job.synth.hint);
      return std::move(one[0]);
    };
    auto inspect = [&](size_t, const r1cs::proving_assignment<>& pa) {
      const auto d0 = clock_type::now();
      for (const std::vector<fr>* v : {&pa.a, &pa.b, &pa.c})
        hasher.update({reinterpret_cast<const uint8_t*>(v->data()), v->size() * sizeof(fr)});
      out.public_inputs.emplace_back(pa.input_assignment.begin() + 1, pa.input_assignment.end());
      digest_s += std::chrono::duration<double>(clock_type::now() - d0).count();
    };
    groth16::pipeline_timings pt;
    const auto t0 = clock_type::now();
    out.proofs = groth16::prove_pipelined(job.params, job.synth.circuits.size(), synthesize, inspect, rng, opt, &pt);
    out.total_s = std::chrono::duration<double>(clock_type::now() - t0).count() - digest_s;
    out.synthesis_s = pt.synthesis_s;
    out.prove = pt.prove;
    out.digest = circuits::to_hex(hasher.finish());
  });
}

}  // namespace zk::bench
