// `abtest history` below the command line: every (variant, metric) series of nights through the
// change-point pipeline, each change point stored with its triage state (and with --confirm the A/B
// of the nights on either side, an alert when it is slower), the CUSUM alarm of the latest night,
// then the nightly alerts whose metrics came back closed as fixed (design §7, §9.1).
//
//   history_request r;
//   r.kind = db::experiment_kind::nightly;
//   r.confirm = true;
//   const report::history_result h = analyze_history(store, r, ctx);
//   return h.regression ? 1 : 0;
#pragma once

#include <optional>
#include <string>

#include "db/results_store.hpp"
#include "harness/changepoint/detect.hpp"
#include "harness/experiment/context.hpp"
#include "harness/report/history_output.hpp"

namespace abtest {

struct history_request {
  std::string variant, metric;              // one of each; "" = every one with a series
  std::optional<db::experiment_kind> kind;  // only experiments of this kind (any when nullopt)
  std::string canary = "canary";            // the variant that normalises the others when it has a series
  changepoint::detect_options detect;       // its e_divisive.min_magnitude is the margin (δ)
  bool confirm = false;                     // run the A/B of each new change point
  int confirm_rounds = 10;
  std::string manifest;                     // for the A/B's real builds ("" = the one the night recorded)
  std::string command_line;                 // recorded with each A/B's experiment
};

// Records the change points it finds (and, with `confirm`, the A/Bs and their sightings), closes the
// alerts that recovered, and returns what it found in the series' order (store.series_keys). A
// change point counts as a regression while it is new, moves the metric its worse way, was not
// cleared by an A/B that ran and found it anything but slower, and its alert (if any) is still new;
// so does a CUSUM alarm the worse way. Throws usage_error when no series matches.
report::history_result analyze_history(db::results_store& store, const history_request& r, const experiment_context& ctx);

}  // namespace abtest
