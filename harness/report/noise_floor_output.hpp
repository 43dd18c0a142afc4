// What `abtest noise-floor` shows: how much a rebuild in another code layout (A/A′), or seeded
// relinks of one build (--layouts K), move each metric — for the terminal and --json.
#pragma once

#include <string>
#include <vector>

#include "harness/core/analysis.hpp"
#include "harness/report/exporter.hpp"

namespace abtest::report {

struct noise_floor_row {
  const verdict_row* row = nullptr;  // the A/A′ comparison's row
  double floor = 0;                  // the largest |ratio − 1| its CI admits
  double layout_sd = 0;              // --layouts: the layout sd (ln scale); 0 for a rebuild
};

struct noise_floor_result {
  std::string experiment, variant;  // variant: A's key
  int rounds = 0;
  int layouts = 0;                  // > 0: K + K seeded links of one build; 0: A/A′ rebuilt
  std::vector<std::string> layout;  // A/A′: the A′ build's extra arguments
  std::vector<noise_floor_row> floors;
  std::string note;                 // A/A′: why the measure may be run-to-run noise only ("" when none)
};

// terminal: "experiment ID", a heading and a row per metric (ratio, CI, floor; with layouts the
// layout and run sds); json: {experiment, variant, layouts, rounds, floors[]} with --layouts, else
// {experiment, variant, layout, rounds, floors[], note}.
std::string render(const noise_floor_result& r, format f);

}  // namespace abtest::report
