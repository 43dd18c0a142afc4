// The Groth16 parameters of a job's circuit, loaded from the cache or made by the setup. The setup's
// keypair assembly synthesizes the circuit with linear combinations, so this file reads A1; it is kept
// apart from proof_run.cpp so that the proving modes do not (see synth_job.hpp).
#include "bench/proof_run.hpp"

#include "circuits/porep_circuit.hpp"
#include "groth16/setup.hpp"

namespace zk::bench {

groth16::parameters load_or_setup_parameters(const synth_job& job, uint64_t param_seed, const std::string& cache_dir,
                                             unsigned threads, bool* from_cache) {
  const circuits::porep_circuit circuit{job.preset, &job.vanilla.partitions.at(0)};
  return groth16::load_or_setup(circuit, param_seed, cache_dir, threads, from_cache);
}

}  // namespace zk::bench
