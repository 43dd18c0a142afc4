// porep-bench: the pipeline's command-line benchmark (cuzk-bench's counterpart), one mode per file.
//
//   porep-bench synth-only  --preset P --iterations N [--json] [--input FILE] [--seed S]
//   porep-bench gen-vanilla --preset P --out FILE [--seed S]
//
// Adding a mode (e.g. `single`, `batch`, `msm`): write variants/bench/mode_<name>.cpp defining
// `int zk::bench::mode_<name>(int argc, char** argv)` (parse with CLI11 as mode_synth_only.cpp does;
// print design §4's json object on --json), declare it in mode.hpp, add one row to `modes` below,
// and add the file to porep-bench's sources in variants/bench/CMakeLists.txt.
#include <cstdio>
#include <cstring>
#include <string_view>

#include "bench/mode.hpp"

namespace {

struct mode_entry {
  std::string_view name;
  zk::bench::mode_fn run;
  std::string_view help;
};

constexpr mode_entry modes[] = {
    {"synth-only", zk::bench::mode_synth_only, "time circuit synthesis of every partition (no proving)"},
    {"gen-vanilla", zk::bench::mode_gen_vanilla, "write the deterministic circuit inputs of a preset to a file"},
    {"single", zk::bench::mode_single, "one full proof: synthesis, H, MSMs, verification, phase timings"},
    {"batch", zk::bench::mode_batch, "the partitions as a pipeline: synthesis of i+1 overlaps proving of i"},
    {"msm", zk::bench::mode_msm, "time one G1 or G2 multi-scalar multiplication of 2^N points"},
};

void usage(std::FILE* out) {
  std::fprintf(out, "usage: porep-bench MODE [options]   (porep-bench MODE --help for its options)\nmodes:\n");
  for (const auto& m : modes) std::fprintf(out, "  %-12.*s %.*s\n", int(m.name.size()), m.name.data(), int(m.help.size()), m.help.data());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (const auto& m : modes) {
    if (m.name == argv[1]) return m.run(argc - 1, argv + 1);
  }
  std::fprintf(stderr, "error: unknown mode '%s' — run porep-bench --help for the modes\n", argv[1]);
  return 2;
}
