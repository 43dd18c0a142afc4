// `--bundle DIR` of run and matrix (design §3.2): build the arms for the host that will measure
// (build.bundle_args, in their own folders) and write the bundle instead of measuring.
#pragma once

#include <string>
#include <vector>

#include "harness/builder/builder.hpp"
#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/plan.hpp"

namespace abtest::cli {

// What --bundle cannot carry, refused before anything is built (usage errors, exit 2).
void check_bundle_flags(const std::string& dir, const evidence_flags& ev, const std::string& simulate, bool resume);

// `options` for bundle builds: build.bundle_args on the configure line, <state>/bundle-build as the
// build root (the variants' own folders are never reconfigured for another target), and the CUDA
// kernels kept whether or not this host has a device.
builder_options bundle_builder_options(const manifest& m, builder_options options);

// Writes the bundle of `plan` (its arms built) into `dir` and says what was written (text, or
// --json); returns the exit code.
// `experiment_config` goes with the experiment into the results (a matrix's design and shard).
int write_bundle_for(const manifest& m, const run_plan& plan, const std::string& dir, const global_options& g,
                     const std::vector<std::string>& notes, const nlohmann::json& experiment_config = nlohmann::json::object());

}  // namespace abtest::cli
