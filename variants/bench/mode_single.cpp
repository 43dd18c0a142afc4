// porep-bench single: one full proof — synthesis of every partition, then the batch prover
// (A4, D4 as built), then verification; each phase timed (DESIGN §4 names).
#include <chrono>
#include <cstdio>
#include <random>
#include <span>

#include "bench/mode.hpp"
#include "bench/proof_run.hpp"
#include "circuits/assignment_digest.hpp"
#include "groth16/prover.hpp"
#include "r1cs/synthesize.hpp"

namespace zk::bench {

int mode_single(int argc, char** argv) {
  CLI::App app{"one full Groth16 proof of a preset: synthesis, H, MSMs, verification", "porep-bench single"};
  proof_flags flags;
  flags.add_to(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  groth16::backend backend;
  if (const int rc = resolve_backend(flags, &backend); rc != 0) return rc;
  try {
    const proof_job job = prepare_proof_job(flags);
    const groth16::prover_options opt{.nthreads = flags.threads, .backend = backend};
    std::mt19937_64 rng(flags.seed);
    proof_outcome out;

    using clock_type = std::chrono::steady_clock;
    const auto t0 = clock_type::now();
    auto pas = r1cs::synthesize_partitions(std::span<const circuits::porep_circuit>(job.synth.circuits), job.synth.hint);
    const auto t1 = clock_type::now();
    std::vector<groth16::assignment_view> views;
    for (const auto& pa : pas) views.push_back(groth16::view_of(pa));
    out.proofs = groth16::prove_batch(job.params, views, rng, opt, &out.prove);
    const auto t2 = clock_type::now();
    out.synthesis_s = std::chrono::duration<double>(t1 - t0).count();
    out.total_s = std::chrono::duration<double>(t2 - t0).count();

    out.digest = circuits::assignment_digest(pas);
    for (const auto& pa : pas) out.public_inputs.emplace_back(pa.input_assignment.begin() + 1, pa.input_assignment.end());
    return finish_proof_run("single", flags, job, out, opt);
  } catch (const groth16::gpu_error& e) {
    std::fprintf(stderr, "error: %s — use --backend cpu\n", e.what());
    return 4;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s — check the parameter cache folder and the input file\n", e.what());
    return 4;
  }
}

}  // namespace zk::bench
