// From what the history and `pr` confirm to alerts in the store, and back to fixed (design §9.1).
//
//   // the nightly history, for a change point its A/B confirmed slower:
//   store.record_sightings(std::vector{alerts::nightly_sighting(change)});
//   // later nights: close the alerts whose metrics came back
//   alerts::close_recovered(store, variant, {{"proof.total_s", nights}});
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/results_store.hpp"

namespace abtest::alerts {

// The benchmark a metric belongs to: its name up to the first '.' ("proof" of "proof.total_s").
std::string benchmark_of(std::string_view metric);

// A change point of a nightly series that the A/B of the builds on either side confirmed.
struct nightly_change {
  std::string variant;
  std::string metric;
  std::string night;        // the experiment of the night at the change
  std::string confirmed_by; // the A/B's experiment ("" when it reused nothing measurable)
  double ratio = 1.0;
  std::optional<double> ci_low, ci_high;
  double before_median = 0;  // the series' level on the night before the change
  double after_median = 0;   // and on the night at it
};
db::alert_sighting nightly_sighting(const nightly_change& change);

// One night of a series: its experiment and median, oldest first.
struct night_median {
  std::string experiment;
  double median = 0;
};

// Closes as fixed each open nightly alert of `variant` whose every metric with a series here has
// come back to its old level (recovery.hpp) over the nights from its change on; the note names the
// nights and the levels. Returns the ids it closed.
std::vector<std::int64_t> close_recovered(db::results_store& store, const std::string& variant,
                                          const std::map<std::string, std::vector<night_median>>& series);

}  // namespace abtest::alerts
