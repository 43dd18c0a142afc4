// The experiments of `abtest noise-floor` (design §7): A/A′ — one variant built twice, the second in
// another code layout — or one build linked in 2K seeded layouts, measured in RMIT rounds. Their
// analysis gives the floors (noise_floor.hpp).
//
//   const floor_request q{m, scenario, mm, v, {"-DCMAKE_CXX_FLAGS=-falign-functions=64"}, 0, "abtest noise-floor"};
//   const floor_measurement r = measure_rebuild_floor(q, store, ctx);
//   for (const metric_floor& f : noise_floors(r.analysis, {}, floor_source::rebuild)) …
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/context.hpp"
#include "harness/experiment/request.hpp"
#include "harness/search/scenario.hpp"

namespace abtest {

struct floor_request {
  const manifest& m;
  const std::optional<search::scenario>& scenario;  // with it nothing is built (design §12)
  measurement measure;
  variant v;
  std::vector<std::string> layout;  // the A′ build's extra cmake arguments
  int layouts = 0;                  // > 0: 2K seeded relinks of one build instead of A′
  std::string command_line;
};

struct floor_measurement {
  std::string experiment_id;
  std::string variant;     // A's key
  analysis_result analysis;
  std::string note;        // A/A′: the layout arguments left the binaries identical ("" otherwise)
};

// A and A′ built (exit 3 when one fails) and compared, identical binaries measured too (the point
// is the spread).
floor_measurement measure_rebuild_floor(const floor_request& q, db::results_store& store, const experiment_context& ctx);

// One build linked 2K times: layouts 0..K−1 are A, K..2K−1 are A″ (`~layouts`); the two-level
// comparison of the halves gives the floor of a `run --layouts K` comparison.
floor_measurement measure_layout_floor(const floor_request& q, db::results_store& store, const experiment_context& ctx);

}  // namespace abtest
