// The prover backends' names, as porep-bench's report writes them (design §4 "backend"), and B1's default.
#include "gpu/api.hpp"
#include "groth16/prover.hpp"

namespace zk::groth16 {

const char* to_string(backend b) { return b == backend::cuda ? "cuda" : "cpu"; }

bool default_host_register() { return gpu::default_host_register(); }

}  // namespace zk::groth16
