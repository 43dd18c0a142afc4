// The `build` object of abtest.json: one row per build system — its name, the keys it takes and how
// it reads its own, whether it builds Cargo bench targets or in the source tree (design §3.1).
#pragma once

#include <nlohmann/json.hpp>

#include "harness/core/manifest.hpp"
#include "harness/core/manifest_validator.hpp"

namespace abtest {

// Reads `build`, naming `build.<key>` and the fix for anything wrong.
void parse_build(const manifest_validator& v, const nlohmann::json& b, build_spec& out);
// Builds "bench:NAME" targets (Cargo).
bool has_bench_targets(build_system s);
// Builds in the source tree (a command build): every variant needs a worktree of its own.
bool builds_in_source(build_system s);

}  // namespace abtest
