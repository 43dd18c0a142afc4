// The mechanism block as JSON and as terminal text (markdown and HTML join the report exporters).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/counts/mechanism.hpp"

namespace abtest::counts {

// {"base": "base", "candidate": "A1=4", "rank_by": "Ir", "region": "", "comparable": true,
//  "counts": [{"name": "Ir", "base": 1200, "candidate": 1100, "delta": -100, "relative": -0.0833}],
//  "unchanged": ["Bcm"], "missing": [],
//  "functions": [{"name": "f", "file": "f.cpp", "base": 800, "candidate": 700, "delta": -100,
//                 "relative": -0.125, "deltas": {"Ir": -100, "D1mr": -3}}],
//  "alloc_sites": [{"where": "f (f.cpp:9)", "delta_blocks": -10, "delta_bytes": -320,
//                   "base_bytes": 640, "candidate_bytes": 320}]}
// "relative" is null when the base count is 0; "incomparable_reason" is there when not comparable.
nlohmann::json to_json(const mechanism& m);

// Numbers as every form of the block shows them: format_count(1234567) = "1,234,567",
// format_delta(-1234) = "-1,234" and format_delta(5) = "+5", format_relative(-0.0833) = "-8.33%"
// ("new" for nullopt: the base count was 0).
std::string format_count(count v);
std::string format_delta(std::int64_t v);
std::string format_relative(const std::optional<double>& relative);

struct terminal_options {
  std::size_t name_width = 100;  // longer function / site names are cut, with "…"
  std::string indent = "  ";
};

// The block as lines of text for a terminal, e.g.
//
//   mechanism: A1=4 vs base (Valgrind counts, exact)
//     Ir               1,200 →      1,100       -100   -8.33%
//     unchanged: Bcm
//     functions by Δ Ir:
//            -100  -12.50%  f  [D1mr -3]
//     allocation sites by Δ bytes:
//       -320 B  -10 blocks  f (f.cpp:9)
std::string format_terminal(const mechanism& m, const terminal_options& options = {});

}  // namespace abtest::counts
