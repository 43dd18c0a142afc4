// `abtest init` on a Cargo crate or workspace: its members, their features, bins and benches as
// `cargo metadata` lists them, each bench given the output format of its harness (design §3.1).
//
//   project_draft d;
//   probe_cargo("/src/cuzk", say, d);   // d.manifest: build, toggles, benchmarks; d.guessed / to_do
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "harness/builder/cargo_text.hpp"
#include "harness/builder/project_probe.hpp"

namespace abtest {

// What a Criterion bench's command adds so that one abtest sample is one short Criterion run: its
// benchmark mode (`--bench`, what `cargo bench` passes), 1 s of warm-up and of measurement, 10
// samples (Criterion 0.3's least), no plots.
inline constexpr const char* criterion_sample_args[] = {"--bench", "--warm-up-time", "1", "--measurement-time", "1",
                                                        "--sample-size", "10", "--noplot"};

// Fills d.manifest (project, build, toggles, benchmarks) from `cargo metadata --no-deps` run in
// `source`. Throws user_error (exit 2) when Cargo cannot read the workspace.
void probe_cargo(const std::filesystem::path& source, const std::function<void(std::string_view)>& say, project_draft& d);

}  // namespace abtest
