// The pull-request gate as one library call (design §9.2): the merge base and the head built as
// commit arms with their own defaults, the benchmarks whose programs differ timed interleaved,
// every move confirmed by a second experiment, flipped defaults attributed, confirmed regressions
// recorded as alerts. `abtest pr` parses its flags into a pr_request and renders the report.
//
//   const pr_request q{.head = "HEAD", .budget_s = 600, .measure = mm};
//   gate::pr_report rep = start_pr_report(m, q);             // usage errors (exit 2) before anything runs
//   run_pr_gate(m, q, store, ctx, "abtest pr", rep);         // builds, measures, confirms, records
//   std::cout << gate::render(rep, report::format::markdown);
#pragma once

#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/core/manifest.hpp"
#include "harness/experiment/context.hpp"
#include "harness/experiment/request.hpp"
#include "harness/gate/pr_report.hpp"

namespace abtest {

// What `abtest pr` was asked.
struct pr_request {
  std::string base;                   // the base branch (empty: origin/main, else main)
  std::string head = "HEAD";
  std::vector<std::string> toggles;   // ID[=LEVEL] built alike on both sides
  std::vector<std::string> benches;   // empty: every benchmark
  double budget_s = 600;              // wall budget of the measurements
  int max_rounds = 30;                // adaptive rounds' cap (measure.rounds == 0)
  int layouts = 0;                    // seeded links per side (with fixed rounds)
  bool no_confirm = false, counts = false;
  std::string fail_on = "regression";
  measurement measure;
};

// The request checked against the manifest (usage errors, exit 2, before anything is built), the
// head and its merge base resolved: a report with the policy, budget, refs and rounds rule.
gate::pr_report start_pr_report(const manifest& m, const pr_request& q);

// Builds both sides (exit 3 when one does not build), measures and confirms within the budget,
// attributes confirmed changes to flipped defaults, records alerts; fills the rest of `rep`,
// exit code and wall time included. An interruption throws (exit 4: `abtest pr` again).
void run_pr_gate(const manifest& m, const pr_request& q, db::results_store& store, const experiment_context& ctx,
                 const std::string& command_line, gate::pr_report& rep);

}  // namespace abtest
