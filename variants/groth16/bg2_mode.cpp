// The A4 default: how a batch's B_G2 MSMs run, read from the toggle header.
#include "abtest/toggles/a4.hpp"
#include "groth16/prover.hpp"

namespace zk::groth16 {

bg2_mode default_bg2_mode() { return ABTEST_A4_PARALLEL_BG2 ? bg2_mode::parallel : bg2_mode::sequential; }

const char* to_string(bg2_mode mode) { return mode == bg2_mode::parallel ? "parallel" : "sequential"; }

}  // namespace zk::groth16
