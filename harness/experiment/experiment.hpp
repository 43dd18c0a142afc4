// Running an experiment end to end: record the plan, run the RMIT schedule into the database
// (resumable), analyse once, store the verdicts. The library under run, matrix, bisect, check,
// noise-floor and history; it knows nothing of the command line (context.hpp). Its arms come from
// build_record.hpp (builds), arms.hpp (arms, digests, layouts) and machine.hpp (the host's row),
// which this header brings in for its users.
//
//   const experiment_context ctx;                       // silent; or a progress callback
//   const std::string id = create_experiment(store, &m, plan, "abtest run …", current_machine(store));
//   std::vector<sample> samples;
//   process_source source(m, plan);
//   const execution e = execute(store, m, plan, id, source, samples, ctx);   // e.analysis.rows: verdicts
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/builder/builder.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/plan.hpp"
#include "harness/core/sample_source.hpp"
#include "harness/core/scheduler.hpp"
#include "harness/experiment/arms.hpp"
#include "harness/experiment/build_record.hpp"
#include "harness/experiment/context.hpp"
#include "harness/experiment/machine.hpp"

namespace abtest {

// Creates the experiment row and its arms in one transaction; returns its id. The plan (with the
// owning process) is stored in `config`, so `--resume` needs nothing else. `extra_config` keys are
// added beside the plan's (e.g. a matrix shard's design, the parent of a bisection's comparison);
// `id`, when given, is the experiment's id (a bundle's, chosen where it was made).
std::string create_experiment(db::results_store& store, const manifest* m, const run_plan& plan,
                              const std::string& command_line, std::int64_t machine_id,
                              const nlohmann::json& extra_config = nlohmann::json::object(),
                              const std::string& id = {});

// Runs what is missing of the experiment's schedule, recording each sample in its own transaction
// as it completes and reporting each to `ctx` (round r/R, arm, benchmark, ETA). SIGINT/SIGTERM stop
// after the sample in flight (`interrupted`). Analyses nothing and leaves the status alone.
schedule_result measure(db::results_store& store, const manifest& m, const run_plan& plan, const std::string& id,
                        sample_source& source, std::vector<sample>& samples, const experiment_context& ctx);

// Replaces the stored verdicts with `analysis` (one transaction), then marks the experiment complete,
// or incomplete when it was interrupted: a complete experiment always has its verdicts.
void conclude(db::results_store& store, const std::string& id, const analysis_result& analysis, bool interrupted);

// measure, then the one analysis of every sample (resumed ones too) with the verdicts of the
// experiment's stored counts appended (counts.hpp: outside Holm), then conclude.
struct execution {
  schedule_result schedule;
  analysis_result analysis;
  std::vector<db::counts_record> counts;  // stored by measure_counts; empty without --counts
};
execution execute(db::results_store& store, const manifest& m, const run_plan& plan, const std::string& id,
                  sample_source& source, std::vector<sample>& samples, const experiment_context& ctx);

// The exit code of design §9 for a finished comparison.
int exit_code_for(const analysis_result& a, bool fail_on_regression);

}  // namespace abtest
