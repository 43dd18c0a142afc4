// The unit prices a bisection is planned with, read from what the store recorded (or the scenario file).
#pragma once

#include <string>

#include "db/results_store.hpp"
#include "harness/search/price.hpp"
#include "harness/search/scenario.hpp"

namespace abtest {

// With a scenario: its top-level "build_s" (one configuration's build, default 0) and "run_s" (one
// run, default the metric's base when it is a time in seconds, `*_s`). Otherwise: the median over the
// variants built on this machine of each one's newest build into a fresh folder (last_build_seconds),
// and the median duration of the measured runs of the
// metric's benchmark in the newest experiment that has some. σ either way: the pooled within-arm sd
// of ln(metric) in the newest noise-floor experiment that measured the metric, else 2%. `basis` says
// which of these were found.
search::unit_costs recorded_costs(db::results_store& store, const std::string& metric, const search::scenario* s);

}  // namespace abtest
