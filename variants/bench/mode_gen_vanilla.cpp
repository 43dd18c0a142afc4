// porep-bench gen-vanilla: writes a preset's deterministic circuit inputs (the C1-output stand-in).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>

#include "bench/mode.hpp"
#include "circuits/porep_vanilla.hpp"

namespace zk::bench {

int mode_gen_vanilla(int argc, char** argv) {
  CLI::App app{"write the deterministic circuit inputs of a preset to a file", "porep-bench gen-vanilla"};
  std::string preset = "small", out;
  uint64_t seed = 1;
  app.add_option("--preset", preset, "tiny, small, medium, large")->capture_default_str();
  app.add_option("--seed", seed, "generation seed")->capture_default_str();
  app.add_option("--out", out, "output file (JSON)")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    const circuits::porep_preset& p = circuits::find_porep_preset(preset);
    if (!p.runnable) {
      std::fprintf(stderr, "error: preset '%s' is documentation only — use tiny, small, medium or large\n", preset.c_str());
      return 2;
    }
    circuits::save_porep_vanilla(circuits::generate_porep_vanilla(p, seed), out);
    fmt::print("wrote {} ({} partitions, seed {})\n", out, p.partitions, seed);
    return 0;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s — check that the output folder exists and is writable\n", e.what());
    return 4;
  }
}

}  // namespace zk::bench
