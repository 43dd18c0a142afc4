// Writes a bundle folder (design §3.2): the arms' programs with the shared libraries they load, the
// plan, the runner and a README — everything a host that cannot build needs to measure the experiment.
//
//   DIR/run                  the runner (needs only the C library; the CUDA driver for CUDA plans)
//   DIR/plan.json            bundle_plan.hpp
//   DIR/bin/<arm>/<program>  one file per distinct program: arms with equal programs share it
//   DIR/lib/<soname>         every library the programs (and the runner) load that a host lacks
//   DIR/README.txt           how to run it and bring the results back
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"

namespace abtest::bundle {

struct bundle_request {
  std::string experiment_id;
  std::string command_line;
  run_plan plan;                     // as measured here: arms with their built programs (absolute)
  std::filesystem::path runner;      // the runner program to copy as DIR/run
  nlohmann::json experiment_config = nlohmann::json::object();  // kept with the experiment (a matrix's design)
};

struct bundle_summary {
  std::uintmax_t bytes = 0;          // the folder's size
  int programs = 0;                  // distinct program files
  int libraries = 0;
};

// Writes `dir` (created; a folder that already holds a bundle is replaced, any other non-empty one
// refused). Throws std::runtime_error "… — …" for what cannot be bundled (a library not found here,
// two different libraries of one name, an unwritable folder).
bundle_summary write_bundle(const std::filesystem::path& dir, const manifest& m, const bundle_request& request);

}  // namespace abtest::bundle
