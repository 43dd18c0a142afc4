// The measurement flags that run, matrix, bisect, noise-floor and check share — --rounds, --margin,
// --param, --simulate, --seed, --jobs — declared once and checked once (design §9); and the
// evidence flags of run, matrix and bisect — --layouts, --duet, --counts, --pin (design §6), whose
// values and checks are the experiment request's (experiment/request.hpp).
//
// Example (a command's registration, then its action):
//   add_measurement_options(cmd, f->measure, {.rounds_help = "interleaved rounds (default 10)"});
//   const measurement mm = resolve_measurement(f.measure, m, rounds_rule::paired);   // usage errors: exit 2
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/manifest.hpp"
#include "harness/experiment/request.hpp"

namespace abtest {
struct oracle_settings;
}

namespace abtest::cli {

struct measurement_flags {
  int rounds = 10;  // the command's default: set it before add_measurement_options
  double margin_pct = 1.0;
  std::vector<std::string> params{};
  std::string simulate{};  // a scenario file (design §12); load it with load_simulate_flag
  std::optional<std::uint64_t> seed{};
  int jobs = 0;
};

// Which flags a command offers and how it describes them; an empty help leaves the flag out.
struct measurement_options {
  std::string rounds_help{};
  std::string margin_help = "practical margin in percent (default 1)";
  std::string simulate_help = "draw samples from a scenario file instead of building and running (design §12)";
  std::string seed_help = "seed of the round order (default: random, recorded)";
  std::string jobs_help = "parallel build jobs (default: the build tool's)";
};
void add_measurement_options(CLI::App* cmd, measurement_flags& f, const measurement_options& o);

// What --rounds may be: at least 2 for a paired comparison, or for a matrix, whose effects need a
// residual across rounds; `adaptive_when_zero` also takes 0 (the default: adaptive rounds).
enum class rounds_rule { paired, effects, adaptive_when_zero };

// The flags checked and resolved against the manifest (experiment/request.hpp: `measurement`).
measurement resolve_measurement(const measurement_flags& f, const manifest& m, rounds_rule rule);

// The evidence flags (experiment/request.hpp: `evidence_flags`, checked by check_evidence there).
// The command words what --duet and --counts do there (`duet_help`, `counts_help`).
void add_evidence_options(CLI::App* cmd, evidence_flags& f, const std::string& duet_help, const std::string& counts_help);

// The flags into the settings of every experiment a search runs (matrix, bisect).
void copy_evidence(const evidence_flags& f, oracle_settings& s);

}  // namespace abtest::cli
