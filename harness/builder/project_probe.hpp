// `abtest init`'s reading of a project: its build system, the options or features that could be
// toggles, and the programs that look like benchmarks — a starting manifest and what was guessed.
//
//   project_draft d = probe_project("/src/proj", "/src/proj", "/src/proj/.abtest/init-probe", print);
//   write(d.manifest);  for (auto& s : d.guessed) print(s);   // guesses and what is left to fill in
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace abtest {

struct project_draft {
  nlohmann::ordered_json manifest;     // design §3 / §3.1, ready to validate
  std::vector<std::string> guessed;    // what was read or guessed, one line each
  std::vector<std::string> to_do;      // what the user still has to fill in or check
  std::vector<std::string> left_out;   // options and programs that are not toggles or benchmarks, and why
};

// Looks at `source` (CMakeLists.txt → cmake, Cargo.toml → cargo (cargo_probe.hpp), Makefile → command). For CMake
// the options come from an existing configured cache (build/, out/, cmake-build-*), or from a
// configure into `probe_dir`; an option that builds the benchmarks (option_role::benchmarks) and is
// OFF is configured ON and kept in build.cmake_args, the Google Benchmark programs are built there
// and asked `--benchmark_list_tests`. `manifest_dir` is where the manifest will be written
// (source_dir is made relative to it). `say` hears what takes time before it starts. Throws
// user_error when no build system is recognised or the configure fails (naming a missing package).
project_draft probe_project(const std::filesystem::path& source, const std::filesystem::path& manifest_dir,
                            const std::filesystem::path& probe_dir, const std::function<void(std::string_view)>& say);

}  // namespace abtest
