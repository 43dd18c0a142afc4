// `--counts` (design §6): each arm's benchmarks run once under Valgrind into the results
// store, and the verdicts of those counts — exact, never in the Holm family of the timings.
//
//   require_valgrind();                                     // before building: a usage error without it
//   const std::string id = create_experiment(store, &m, plan, cmd, machine, {{"counts", true}});
//   for (const auto& n : measure_counts(store, m, plan, id, ctx)) notes.push_back(n);   // failures
//   const execution e = execute(store, m, plan, id, source, samples, ctx);   // count rows included
#pragma once

#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/counts/valgrind.hpp"
#include "harness/experiment/context.hpp"

namespace abtest {

// Throws usage_error (exit 2) naming the fix when Valgrind cannot be run.
void require_valgrind();

// The benchmarks of the plan that --counts runs: those whose manifest entry is not `"counts": false`.
std::vector<const benchmark_spec*> counted_benchmarks(const manifest& m, const run_plan& plan);

// The Valgrind run of `bench` for `arm`: its command on the run's params with the counts entry's
// over them, its `args` appended, in the manifest's folder with the arm's environment, as the
// timing runs are; the entry's region and timeout.
counts::counts_options counts_options_for(const manifest& m, const run_plan& plan, const arm_plan& arm,
                                          const benchmark_spec& bench);

// Runs each (arm, counted benchmark) without stored counts — a resumed experiment skips the stored
// ones and retries failures — and stores each as it completes (counts or error), reporting
// `progress::kind::counts` lines to `ctx`. A failure stops nothing: it is stored and returned as a
// warning line naming the arm and the benchmark, for the caller to show with the report.
std::vector<std::string> measure_counts(db::results_store& store, const manifest& m, const run_plan& plan,
                                        const std::string& id, const experiment_context& ctx);

// The verdict rows of stored counts, appended to `analysis` (after judge(): never in Holm): for
// each candidate arm and benchmark with counts in it and the baseline, one row per headline count
// present in both, metric `<bench>.counts.<name>`, n = 1, the medians the two counts, ratio
// candidate / base (1 for 0 vs 0, none for 0 vs more), no CI and no p-value; SLOWER / FASTER /
// SAME by exact comparison (they read HIGHER / LOWER / SAME), INCONCLUSIVE with a note when the
// two were counted under different caches, Valgrind versions or regions.
void add_count_verdicts(analysis_result& analysis, const run_plan& plan, const std::vector<db::counts_record>& counts);

}  // namespace abtest
