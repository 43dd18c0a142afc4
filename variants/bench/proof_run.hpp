// What porep-bench's proving modes (single, batch) share: flags, parameters, the report.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/synth_job.hpp"
#include "ff/fr.hpp"
#include "groth16/parameters.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"

namespace zk::bench {

struct proof_flags {
  std::string preset = "small";
  uint64_t seed = 1;  // circuit inputs
  std::optional<std::string> input;
  bool json = false;
  std::optional<std::string> export_dir;
  std::string backend = "cpu";
  std::string host_register = "default";  // B1 at run time: default (the build's), on, off
  std::string msm_window = "default";     // D4 at run time: default (the build's), shared, per_msm
  unsigned threads = 0;
  std::string param_cache;  // default: $ABTEST_PARAM_CACHE, else .abtest/params
  uint64_t param_seed = 1;  // the setup's toxic waste

  void add_to(CLI::App& app);
};

// Inputs, counting pass and parameters (cached on disk), all outside the timed region.
struct proof_job {
  synth_job synth;
  groth16::parameters params;
  bool params_from_cache = false;
  double params_s = 0;  // setup, or loading from the cache
};

// The backend that will run, before any setup: cpu; cuda when a device is available (no silent
// fallback: otherwise prints `error: --backend cuda: <why> — use --backend cpu` and returns 4);
// auto = cuda when zk::gpu::device_available(), else cpu. Returns 0 and sets *out when it can run.
int resolve_backend(const proof_flags& flags, groth16::backend* out);

proof_job prepare_proof_job(const proof_flags& flags);

// The parameters of the job's circuit (partition 0; every partition has the same shape) for
// `param_seed`, from `cache_dir` or made by the setup and stored there (setup_job.cpp).
groth16::parameters load_or_setup_parameters(const synth_job& job, uint64_t param_seed, const std::string& cache_dir,
                                             unsigned threads, bool* from_cache);

struct proof_outcome {
  double total_s = 0, synthesis_s = 0, verify_s = 0;
  groth16::prover_timings prove;
  std::vector<groth16::proof> proofs;
  std::vector<std::vector<fr>> public_inputs;  // per partition, without the leading one
  std::string digest;  // of every partition's a, b, c (circuits::assignment_digest's encoding)
};

// Verifies every proof (timed as verify_s), exports partition 0 when asked, prints the report
// (design §4 json with --json, else text; "backend" is opt.backend, and with cuda the context's
// "gpu" holds the windows that ran and B1's host_register). Returns 0, or 4 when a proof fails.
int finish_proof_run(const char* mode, const proof_flags& flags, const proof_job& job, proof_outcome& out,
                     const groth16::prover_options& opt);

// The prover options the flags ask for: the backend resolved before, B1 and D4 from the build's
// toggles unless --host-register / --msm-window override them.
groth16::prover_options prover_options_for(const proof_flags& flags, groth16::backend backend);

// A digest of the proofs' points (compressed encodings): equal digests, equal proofs.
std::string proofs_digest(const std::vector<groth16::proof>& proofs);

// What a proving mode does between setup and report: prove the job's partitions into `out`.
using prove_fn = std::function<void(const proof_flags&, const proof_job&, const groth16::prover_options&,
                                    std::mt19937_64&, proof_outcome&)>;

// The common driver of `porep-bench single|batch`: parses the flags, resolves the backend before any
// setup, prepares the job, runs `prove`, then finish_proof_run. Errors: bad flags or input → 2;
// a GPU failure, a failed setup or a proof that does not verify → 4, each with `error: … — …`.
int run_proof_mode(int argc, char** argv, const char* mode, const char* description, const prove_fn& prove);

}  // namespace zk::bench
