// Which benchmarks a pull request can change: those whose programs, run-time environment or named
// input files differ between the base's build and the head's. Decided from the binaries, not from a
// map of source paths (design §9.2).
//
//   const auto base = gate::fingerprint_of(m_base, base_arm, bench, params, base_tree);
//   const auto head = gate::fingerprint_of(m_head, head_arm, bench, params, head_tree);
//   gate::decide(bench.name, base, head).decision   // timing::identical: not timed, and said so
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"

namespace abtest::gate {

enum class timing { timed, identical };

struct benchmark_decision {
  std::string benchmark;
  timing decision = timing::timed;
  std::string reason;  // "identical programs", "programs differ: planted-bench", "inputs differ: data/in.bin"
};

// What one side runs for a benchmark, by content.
struct benchmark_fingerprint {
  std::map<std::string, std::string> programs;  // build target → sha256 of its file
  std::map<std::string, std::string> inputs;    // command argument naming a file → sha256 ("absent" when missing)
  std::map<std::string, std::string> env;       // the arm's `env` toggles: variable → value ("(unset)")
};

// The programs are the benchmark's `{bin}/NAME` targets (benchmark_programs), hashed where the
// arm's build put them. Its inputs are the other command arguments, placeholders expanded, that name
// a regular file — relative ones taken from `tree` (the side's copy of the manifest's folder): the
// files a benchmark reads where the manifest names them. A program that is missing after the build
// is a user_error (exit 3) naming the file and the manifest key to fix.
benchmark_fingerprint fingerprint_of(const manifest& m, const arm_plan& arm, const benchmark_spec& bench,
                                     const std::map<std::string, std::string>& params, const std::filesystem::path& tree);

// timed when anything of the two fingerprints differs (the reason names what), else identical.
benchmark_decision decide(const std::string& benchmark, const benchmark_fingerprint& base, const benchmark_fingerprint& head);

// The benchmarks of `decisions` that are timed, in order.
std::vector<std::string> timed_benchmarks(const std::vector<benchmark_decision>& decisions);

}  // namespace abtest::gate
