// The manifest's metric declarations (design §4; docs/manifest.md "Direction and margin"):
// a benchmark's `better` / `margin`, and the top-level `metrics` object by name or glob.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "harness/stats/metric_policy.hpp"

namespace abtest {

// The rules of `root` (the whole manifest), benchmark rules first, in manifest order:
//   {"benchmarks": [{"name": "gb", …, "better": "higher", "margin": 3}],
//    "metrics": {"*_items_per_second": {"better": "higher"}, "proof.total_s": {"margin": 3}}}
// `margin` is in percent, like --margin, and stored relative (3 → 0.03). A problem is a usage_error
// naming `file`, the key and the fix: an unknown key, `better` other than lower/higher, a margin
// outside [0, 100), an empty declaration, or a name whose benchmark `benchmarks` does not list.
std::vector<stats::metric_rule> parse_metric_rules(const nlohmann::json& root, const std::set<std::string>& benchmarks,
                                                   const std::filesystem::path& file);

}  // namespace abtest
