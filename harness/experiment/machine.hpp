// This host as an experiment records it: its `machine` row (facts, frequency policy) and what it can
// run — a toggle that requires a capability the host lacks (a CUDA device) is inert here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/variant.hpp"

namespace abtest {

// The host's row in `machine`, inserted on first use; `more` is added to its details (a bundle's
// runner: the GPU's name and driver version as the driver reports them, "gpu_name" also as `gpu`).
std::int64_t current_machine(db::results_store& store, const nlohmann::json& more = nlohmann::json::object());

// An arm whose requirements this host lacks (e.g. `requires: ["cuda"]` without a GPU) can build,
// but the toggle cannot change what runs. Returns the inert toggle ids among `v`'s.
std::vector<std::string> inert_toggles(const manifest& m, const variant& v);
bool host_has_cuda();


}  // namespace abtest
