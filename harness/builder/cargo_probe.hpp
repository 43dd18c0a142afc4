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

#include "harness/builder/project_probe.hpp"

namespace abtest {

// How a bench target measures, from its package's dependencies (normal or dev) and its `harness`
// key: Criterion or divan with `harness = false` → that library; `harness = false` otherwise → the
// program's own output; the default harness → libtest's `#[bench]`.
enum class bench_harness { criterion, divan, libtest, own };
bench_harness bench_harness_of(bool harness_off, bool has_criterion, bool has_divan);

// Whether the `[[bench]]` table named `bench` in a Cargo.toml's text says `harness = false`. A bench
// it does not declare (benches/NAME.rs found by Cargo) has the default harness.
bool bench_harness_off(std::string_view cargo_toml, std::string_view bench);

// What a Criterion bench's command adds so that one abtest sample is one short Criterion run: its
// benchmark mode (`--bench`, what `cargo bench` passes), 1 s of warm-up and of measurement, 10
// samples (Criterion 0.3's least), no plots.
inline constexpr const char* criterion_sample_args[] = {"--bench", "--warm-up-time", "1", "--measurement-time", "1",
                                                        "--sample-size", "10", "--noplot"};

// Fills d.manifest (project, build, toggles, benchmarks) from `cargo metadata --no-deps` run in
// `source`. Throws user_error (exit 2) when Cargo cannot read the workspace.
void probe_cargo(const std::filesystem::path& source, const std::function<void(std::string_view)>& say, project_draft& d);

}  // namespace abtest
