// The noise floor of `abtest noise-floor`: per metric, the largest effect an A/A′ comparison (one
// variant built twice in two code layouts, or one build linked in 2K seeded layouts) admits.
//
//   for (const metric_floor& f : noise_floors(analysis, {}, floor_source::rebuild))
//     fmt::print("{} {:.2f}%\n", f.row->metric, 100 * f.floor);
#pragma once

#include <string>
#include <vector>

#include "harness/core/analysis.hpp"

namespace abtest {

// What the two sides of the A/A′ were: two builds (A and A′), or two halves of one build's layouts.
enum class floor_source { rebuild, layouts };

struct metric_floor {
  const verdict_row* row = nullptr;  // the comparison's row, in the analysis given
  // The largest |ln ratio| the A/A′ CI admits, as a ratio − 1: expm1(max(|ln low|, |ln high|)) —
  // an effect smaller than this could be the layout alone (Mytkowicz et al., ASPLOS 2009).
  double floor = 0;
  // floor_source::layouts: the layout sd (ln scale) pooled over the halves, which are layouts of one
  // build and so estimate the same thing: sqrt((sd_A² + sd_A″²) / 2). 0 for a rebuild.
  double layout_sd = 0;
};

// The floor of each row of `a` with a CI (and with floor_source::layouts a layout split), of the
// `metrics` named (all when empty), in the analysis's order.
std::vector<metric_floor> noise_floors(const analysis_result& a, const std::vector<std::string>& metrics, floor_source source);

}  // namespace abtest
