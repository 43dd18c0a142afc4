// What a bundle's runner checks before it measures anything (`run --check`, and every `run`): each
// file is the one the plan names (sha256), each program loads here with the bundled libraries, and
// each capability the arms' toggles require (`cuda`) is on this host.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "harness/bundle/bundle_plan.hpp"
#include "harness/bundle/cuda_probe.hpp"

namespace abtest::bundle {

struct host_check {
  std::vector<std::string> problems;  // each "what — what to do"; empty: the host can run the plan
  std::vector<std::string> passed;    // what was checked and found right, one line each
  cuda_probe cuda;                    // probed only when the plan needs CUDA (else devices = 0, why_none empty)
  bool ok() const { return problems.empty(); }
};

host_check check_host(const bundle_plan& plan, const std::filesystem::path& dir);

// Why `program` cannot be loaded here (the loader's "not found" lines, or its failure), empty when
// it loads. A dynamically linked program is loaded by its loader in trace mode (LD_TRACE_LOADED_OBJECTS,
// as ldd does), which maps its libraries and exits before main; a static one is not run at all.
std::string load_problem(const std::filesystem::path& program, const std::filesystem::path& library_dir);

}  // namespace abtest::bundle
