// A build as an experiment records it: built with its progress and an ETA from the last build, then
// stored as a `build` row (ok or failed) with its details and cost (design §3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "db/results_store.hpp"
#include "harness/builder/builder.hpp"
#include "harness/experiment/context.hpp"

namespace abtest {

// Builds `v`, records the build (ok or failed) and returns the outcome with its build id. Reports
// the build's start, its steps with an ETA from the last recorded build of the variant on this
// machine (else of base), its cost and its notes to `ctx`.
struct recorded_build {
  build_outcome outcome;
  std::int64_t build_id = 0;
};
recorded_build build_and_record(const manifest& m, const variant& v, db::results_store& store, const builder& b,
                                const experiment_context& ctx);

// How long the newest successful build of `key` on `machine_id` took — of those that configured a
// fresh folder (`configured`) or built incrementally, like the build to come, when there is one;
// nullopt when there is no build at all.
std::optional<double> last_build_seconds(db::results_store& store, const std::string& key, std::int64_t machine_id,
                                         bool configured);

// The build record's `details` (system, tool, {bin}, patches, compiled sources, notes) and the
// one-line summary of what a build cost ("built 12.3 s, 2 compiled, 31 from the cache, 2 linked").
nlohmann::json build_details(const manifest& m, const build_outcome& o);
std::string describe_cost(const build_outcome& o);

}  // namespace abtest
