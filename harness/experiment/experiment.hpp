// Running an experiment end to end: build the arms, record the plan, run the RMIT schedule into the
// database (resumable), analyse once, store the verdicts. The library under run, matrix, bisect,
// check, noise-floor and history; it knows nothing of the command line (context.hpp).
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
#include "harness/experiment/context.hpp"

namespace abtest {

// The host's row in `machine`, inserted on first use; `more` is added to its details (a bundle's
// runner: the GPU's name and driver version as the driver reports them, "gpu_name" also as `gpu`).
std::int64_t current_machine(db::results_store& store, const nlohmann::json& more = nlohmann::json::object());

// Builds `v`, records the build (ok or failed) and returns the outcome with its build id. Reports
// the build's start, its steps with an ETA from the last recorded build of the variant on this
// machine (else of base), its cost and its notes to `ctx`.
struct recorded_build {
  build_outcome outcome;
  std::int64_t build_id = 0;
};
recorded_build build_and_record(const manifest& m, const variant& v, db::results_store& store, const builder& b,
                                const experiment_context& ctx);

// How long the newest successful build of `key` on `machine_id` took — of those that configured a
// fresh folder (`configured`) or built incrementally, like the build to come, when there is one;
// nullopt when there is no build at all.
std::optional<double> last_build_seconds(db::results_store& store, const std::string& key, std::int64_t machine_id,
                                         bool configured);

// The arm that measures `v` from its build: {bin}, the programs where the build put them, the
// environment of its `env` toggles, and the digest that makes two arms the same program.
arm_plan arm_for(const manifest& m, const variant& v, const recorded_build& b, std::string role = {});

// The digest of the programs an arm runs, as the build computes it over its binaries: each of the
// manifest's benchmark programs the arm has, `target=sha256`, then the arm's env (program_digest).
// `hashed`: sha256 of files already read, by path (a relinked program's is also its build row's).
std::string programs_digest(const manifest& m, const arm_plan& arm,
                            const std::map<std::filesystem::path, std::string>& hashed = {});

// `k` copies of `arm`, one per layout, with its index and seed (layout_seed of the experiment's seed
// and the arm's key): what a simulated run measures as layouts, and what layout_arms relinks.
std::vector<arm_plan> seeded_layouts(const arm_plan& arm, std::uint64_t experiment_seed, int k);

// Layout randomization (design §6): `arm` (built by `o`) linked again `k` times with seeded section
// orders (harness/builder/layouts.hpp) — only the link repeats — as `k` arms of the same key whose
// programs are the relinked ones, each with its layout index and seed (from plan.seed and the key)
// and its own digest. The programs go to <build folder>/layouts/<seed of layout 0>/<k>/, so a resumed
// experiment finds them. Each layout is recorded in `store` as a build of its own (a link: its
// programs and hashes, `details.layout` = {of_build, index, seed}), which the arm then names, so the
// seeds are stored with the builds. Reports the links to `ctx`; throws user_error (exit 2) with what
// to do when the build cannot be relinked (no lld, not Ninja, no link step).
std::vector<arm_plan> layout_arms(const manifest& m, const run_plan& plan, const arm_plan& arm, const build_outcome& o,
                                  int k, db::results_store& store, const experiment_context& ctx);

// The layout arms of the arms one search built, linked once per (arm key, seed) through layout_arms:
// the relinker that bisect's arm providers (variant_arms, and commit_arms for commits) hand
// experiment_oracle, so that every comparison a variant is in reuses its links.
class relink_cache {
 public:
  relink_cache(db::results_store& store, experiment_context ctx) : store_(store), ctx_(std::move(ctx)) {}
  // What the arm keyed `key` was built from; `m` must outlive the cache.
  void built(const std::string& key, const manifest& m, build_outcome o);
  // The `k` layout arms of `arm` (built(arm.key, …) first): linked on the first call for
  // (arm.key, plan.seed), the same arms after. Throws std::logic_error for an arm never built.
  std::vector<arm_plan> layouts(const run_plan& plan, const arm_plan& arm, int k);

 private:
  db::results_store& store_;
  experiment_context ctx_;
  std::map<std::string, std::pair<const manifest*, build_outcome>> built_;
  std::map<std::pair<std::string, std::uint64_t>, std::vector<arm_plan>> links_;
};

// The build record's `details` (system, tool, {bin}, patches, compiled sources, notes) and the
// one-line summary of what a build cost ("built 12.3 s, 2 compiled, 31 from the cache, 2 linked").
nlohmann::json build_details(const manifest& m, const build_outcome& o);
std::string describe_cost(const build_outcome& o);

// An arm whose requirements this host lacks (e.g. `requires: ["cuda"]` without a GPU) can build,
// but the toggle cannot change what runs. Returns the inert toggle ids among `v`'s.
std::vector<std::string> inert_toggles(const manifest& m, const variant& v);
bool host_has_cuda();

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
