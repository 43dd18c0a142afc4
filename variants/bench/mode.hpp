// A porep-bench mode: one sub-command, its own flags, its own output (see porep_bench_main.cpp).
#pragma once

namespace zk::bench {

// Runs the mode on the arguments after the mode's name (argv[0] is the mode's name); returns the
// process exit code (design §9: 0 ok, 2 usage, 4 benchmark failure).
using mode_fn = int (*)(int argc, char** argv);

int mode_synth_only(int argc, char** argv);
int mode_gen_vanilla(int argc, char** argv);
int mode_single(int argc, char** argv);
int mode_batch(int argc, char** argv);
int mode_msm(int argc, char** argv);

}  // namespace zk::bench
