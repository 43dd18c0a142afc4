// A benchmark object of abtest.json: name, format (its row validates its own keys), command,
// timeouts, exit codes and what `--counts` runs (design §3, §4).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "harness/core/manifest.hpp"
#include "harness/core/manifest_validator.hpp"

namespace abtest {

// Reads `benchmarks[i]` (`where`), naming `where.<key>` and the fix for anything wrong.
benchmark_spec parse_benchmark(const manifest_validator& v, const nlohmann::json& j, const std::string& where);

}  // namespace abtest
