// `abtest init`'s reading of a project: its build system, the options or features that could be
// toggles, and the programs that look like benchmarks — a starting manifest and what was guessed.
//
//   project_draft d = probe_project("/src/proj", "/src/proj/.abtest/init-probe");
//   write(d.manifest);  for (auto& s : d.said) print(s);   // guesses and what is left to fill in
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace abtest {

struct project_draft {
  nlohmann::ordered_json manifest;     // DESIGN §3 / §3.1, ready to validate
  std::vector<std::string> guessed;    // what was read or guessed, one line each
  std::vector<std::string> to_do;      // what the user still has to fill in or check
};

// Looks at `source` (CMakeLists.txt → cmake, Cargo.toml → cargo, Makefile → command). For CMake
// the options come from an existing configured cache (build/, out/, cmake-build-*), or from a
// configure into `probe_dir`. `manifest_dir` is where the manifest will be written (source_dir is
// made relative to it). Throws user_error when no build system is recognised.
project_draft probe_project(const std::filesystem::path& source, const std::filesystem::path& manifest_dir,
                            const std::filesystem::path& probe_dir);

// A toggle id for an option or feature name: upper case, [A-Z0-9_], at most 16 characters, with a
// common prefix (e.g. the project's "ABTEST_") left out, shortened word by word rather than cut
// (LIBDEFLATE_DECOMPRESSION_SUPPORT → DECOMPRESSION); unique among `taken` (a second FOO is FOO_2).
std::string toggle_id_for(const std::string& name, const std::string& prefix, std::vector<std::string>& taken);

// The [features] table of a Cargo.toml, without "default", in file order.
std::vector<std::string> cargo_features(const std::string& cargo_toml);

}  // namespace abtest
