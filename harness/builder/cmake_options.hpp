// What a CMake project's option is for, read from its name: a switch that builds the benchmarks, a
// build setting (tests, fuzzers, sanitizers, warnings, …) or a candidate toggle; and what package
// a configure that failed is missing.
//
//   if (option_role_of("WITH_BENCHMARKS") == option_role::benchmarks) args.push_back("-DWITH_BENCHMARKS=ON");
//   if (auto hint = missing_package_hint(configure_output)) say(*hint);
#pragma once

#include <optional>
#include <string>

namespace abtest {

enum class option_role {
  toggle,         // may change how fast the code runs: a candidate toggle
  benchmarks,     // builds the benchmark programs (*BENCHMARK*, *_BENCH*): ON for the probe and the variants
  build_setting,  // chooses what else is built or how strictly: tests, fuzzers, GoogleTest,
                  // sanitizers, warnings, coverage, install, docs, examples, how fast it compiles
                  // (precompiled headers, unity builds) — left out
};

// By the option's words (split at '_'), case-insensitive, test and tool words first: WITH_BENCHMARKS and WITH_BENCHMARK_APPS
// → benchmarks; WITH_GTEST, WITH_FUZZERS, WITH_SANITIZER, WITH_MAINTAINER_WARNINGS,
// ZLIB_ENABLE_TESTS, INSTALL_UTILS → build_setting; WITH_AVX2 → toggle.
option_role option_role_of(const std::string& name);

// The words of an option's role for a listing: "a benchmark switch", "a build setting".
std::string describe(option_role role);

// From a failed configure's output (stdout and stderr), the package to install, as one sentence:
// "it needs the package GTest — install libgtest-dev (apt-get install libgtest-dev)". Reads
// find_package's two failures ("Could NOT find X", "…provided by \"X\""), pkg-config's, and a
// FetchContent / ExternalProject clone or download that failed (offline), whose repository names
// the package. nullopt when the output names none.
std::optional<std::string> missing_package_hint(const std::string& configure_output);

}  // namespace abtest
