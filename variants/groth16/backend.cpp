// The prover backends' names, as porep-bench's report writes them (DESIGN §4 "backend").
#include "groth16/prover.hpp"

namespace zk::groth16 {

const char* to_string(backend b) { return b == backend::cuda ? "cuda" : "cpu"; }

}  // namespace zk::groth16
