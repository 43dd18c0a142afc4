// Parses a `--pin` CPU list ("0,2-3") into the CPU indices a benchmark is confined to.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace abtest::exec {

struct cpu_list_result {
  std::vector<int> cpus;  // sorted, without duplicates
  std::string error;      // empty on success
};

// Accepts the Linux cpulist syntax: comma-separated indices and inclusive ranges, e.g. "0,2-3,8".
// Whitespace around items is allowed; an empty list, a reversed range or an index ≥ 1024 is an error.
cpu_list_result parse_cpu_list(std::string_view text);

}  // namespace abtest::exec
