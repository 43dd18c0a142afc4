// Experimental designs over k two-level factors: full 2^k, resolution-V fractions, one-at-a-time.
#pragma once

#include <string>
#include <vector>

namespace abtest::search {

// A design: the configurations to run, each a 0/1 level per factor (factor j is letter 'A' + j in
// generator words). Run order inside a round is the executor's business (RMIT, design §6).
struct design {
  std::string kind;                     // "full", "fractional" or "oat"
  int k = 0;                            // factors
  std::vector<std::string> generators;  // e.g. {"E=ABCD"} for the 2^(5−1) half fraction
  std::vector<std::vector<int>> runs;   // runs[c][j] ∈ {0, 1}

  int resolution() const;  // shortest word of the defining relation; 0 for a full factorial ("∞"), −1 for oat
};

// All 2^k configurations in standard (Yates) order: factor A alternates fastest. 1 ≤ k ≤ 16.
design full_factorial(int k);

// The smallest regular 2^(k−p) fraction of resolution ≥ V, so that main effects and two-factor
// interactions are aliased only with three-factor and higher interactions. Generators are the
// minimum-aberration ones of the NIST/SEMATECH e-Handbook, §5.3.3.4.7 (table of 2^(k−p) designs),
// and Box, Hunter & Hunter (2005), Table 6.22:
//   k = 5: E = ABCD (16 runs, resolution V)      k = 6: F = ABCDE (32 runs, VI)
//   k = 7: G = ABCDEF (64 runs, VII)             k = 8: G = ABCD, H = ABEF (64 runs, V)
// k ≤ 4 has no smaller resolution-V fraction: the full factorial is returned. k > 8 throws
// std::invalid_argument (use group testing).
design fractional_factorial(int k);

// One-at-a-time: all off, each factor alone, all on (k + 2 runs; k + 1 when k = 1). Estimates main
// effects only, assuming no interactions — the cheapest screen, not an attribution.
design one_at_a_time(int k);

// "full" | "half" | "oat" as on the command line (`--design`, design §9); "half" = fractional_factorial.
design make_design(const std::string& name, int k);

}  // namespace abtest::search
