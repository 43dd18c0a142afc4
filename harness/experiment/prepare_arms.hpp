// The arms of a requested experiment, prepared in one place for every command that measures variants
// (design §6): one build per build key, a failed build's error with its fix, identical binaries
// measured once (SAME by construction), inert toggles named, layouts relinked, or the scenario's
// simulated arms.
//
//   run_plan plan = plan_of(q);
//   prepared_arms p = prepare_arms(q, std::move(plan), store, builder(q.m, options), ctx);
//   if (!p.comparable()) …  // nothing left to measure: p.notes say why
#pragma once

#include <map>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/builder/builder.hpp"
#include "harness/core/plan.hpp"
#include "harness/experiment/build_record.hpp"
#include "harness/experiment/context.hpp"
#include "harness/experiment/request.hpp"

namespace abtest {

struct prepared_arms {
  run_plan plan;                   // with its arms: the baseline's first
  std::vector<std::string> notes;  // "note: …" lines: inert toggles, candidates identical to the baseline
  std::map<std::string, recorded_build> builds;  // by build key: arms that differ only in env toggles share one

  // Two variants at least are left to measure (a candidate identical to the baseline is not).
  bool comparable() const { return plan.arms.size() >= 2 && variant_groups(plan).size() >= 2; }
};

// The arms of `q` added to `plan` (plan_of(q)): with a scenario, each variant stood in (and its
// seeded layouts); else each variant built once per build key and recorded, a candidate whose
// programs are the baseline's left out with a note, and with --layouts each measured variant
// relinked into its layouts. A failed build throws user_error (exit 3) with the log's last lines and
// what to do (the baseline's is the project's to fix). Inert toggles get a note unless q.bundle is set
// (the bundle's host, not this one, has the capabilities).
prepared_arms prepare_arms(const experiment_request& q, run_plan plan, db::results_store& store, const builder& b,
                           const experiment_context& ctx);

// The user_error (exit 3) of a failed build of `v`: what failed (and the targets missing), the last
// lines of its log, and `fix`.
[[noreturn]] void throw_build_failed(const manifest& m, const build_outcome& o, const std::string& fix);

}  // namespace abtest
