// The A/A′ experiments of `abtest noise-floor`: a rebuild in another layout, or seeded relinks of
// one build (noise_floor_run.hpp).
#include "harness/experiment/noise_floor_run.hpp"

#include <fmt/format.h>

#include "harness/core/errors.hpp"
#include "harness/experiment/arms.hpp"
#include "harness/experiment/build_record.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/machine.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/experiment/simulation.hpp"

namespace abtest {
namespace {

void require_built(const recorded_build& b) {
  if (!b.outcome.ok)
    throw user_error(exit_code::build_failed, fmt::format("the build of {} failed — last lines of {}:\n{}", b.outcome.key,
                                                          b.outcome.log_path.string(), b.outcome.log_tail));
}

// A and A′: the variant as usual, and the same sources and levels in another layout, its own folder;
// `note` says when the layout arguments left the binaries identical.
struct rebuild_pair {
  arm_plan a, b;
  std::string note;
};

rebuild_pair build_rebuild_pair(const floor_request& q, db::results_store& store, const experiment_context& ctx) {
  const manifest& m = q.m;
  rebuild_pair p{{q.v.key(m), q.v.levels, "", {}, {}, std::nullopt, {}, {}},
                 {q.v.key(m) + "~layout", q.v.levels, "", {}, {}, std::nullopt, {}, {}},
                 ""};
  if (q.scenario) return p;
  builder_options bo;
  bo.jobs = q.measure.jobs;
  const auto first = build_and_record(m, q.v, store, builder(m, bo), ctx);
  bo.extra_cmake_args = q.layout;
  bo.folder_suffix = "~layout";
  const auto second = build_and_record(m, q.v, store, builder(m, bo), ctx);
  require_built(first);
  require_built(second);
  p.a = arm_for(m, q.v, first);
  p.b = arm_for(m, q.v, second);
  p.b.key += "~layout";
  if (p.a.binaries_digest == p.b.binaries_digest)
    p.note = "the layout arguments left the binaries identical: this measures run-to-run noise only — pass another --layout";
  return p;
}

// The oracle's settings of the A/A′ experiment: every benchmark, the first one's total.
oracle_settings rebuild_settings(const floor_request& q) {
  oracle_settings s = search_settings(q.scenario, q.measure, q.command_line);
  s.kind = "noise-floor";
  for (const auto& bench : q.m.benchmarks) s.benchmarks.push_back(bench.name);
  s.metric = q.m.benchmarks.front().name + ".total_s";
  s.warmups = q.scenario ? 0 : q.m.benchmarks.front().warmups;
  return s;
}

// The plan of the layouts floor, its arms not yet made.
run_plan layouts_plan(const floor_request& q) {
  run_plan plan;
  plan.kind = "noise-floor";
  plan.params = q.measure.params;
  for (const auto& bench : q.m.benchmarks) plan.benchmarks.push_back(bench.name);
  plan.rounds = q.measure.rounds;
  plan.warmups = q.scenario ? 0 : q.m.benchmarks.front().warmups;
  plan.seed = q.measure.seed;
  plan.simulate = q.measure.simulate;
  plan.layouts = q.layouts;
  plan.metric_rules = q.m.metric_rules;
  return plan;
}

}  // namespace

floor_measurement measure_rebuild_floor(const floor_request& q, db::results_store& store, const experiment_context& ctx) {
  auto [a, b, note] = build_rebuild_pair(q, store, ctx);
  const oracle_settings s = rebuild_settings(q);
  experiment_oracle oracle(store, q.m, ctx, s, [](const search::levels&) { return std::nullopt; });
  a.binaries_digest.clear();  // measure even identical binaries: the point is the spread
  b.binaries_digest.clear();
  arm_set_result r = oracle.run_arms({a, b}, q.measure.rounds, s.kind, {{"layout", q.layout}});
  return {r.experiment_id, a.key, std::move(r.analysis), note};
}

floor_measurement measure_layout_floor(const floor_request& q, db::results_store& store, const experiment_context& ctx) {
  const manifest& m = q.m;
  run_plan plan = layouts_plan(q);
  const arm_plan arm{q.v.key(m), q.v.levels, "", {}, {}, std::nullopt, {}, {}};
  if (q.scenario) {
    plan.arms = seeded_layouts(arm, plan.seed, 2 * q.layouts);
  } else {
    builder_options bo;
    bo.jobs = q.measure.jobs;
    const auto built = build_and_record(m, q.v, store, builder(m, bo), ctx);
    require_built(built);
    plan.arms = layout_arms(m, plan, arm_for(m, q.v, built), built.outcome, 2 * q.layouts, store, ctx);
  }
  for (int k = q.layouts; k < 2 * q.layouts; ++k) plan.arms[k].key += "~layouts";
  for (auto& a : plan.arms) a.role = a.key == arm.key ? "baseline" : "candidate";
  const std::string id = create_experiment(store, &m, plan, q.command_line, current_machine(store), {{"layouts", q.layouts}});
  std::vector<sample> samples;
  process_source real(m, plan);
  std::optional<simulated_source> simulated;
  if (q.scenario) simulated.emplace(*q.scenario, plan);
  auto done = execute(store, m, plan, id, simulated ? static_cast<sample_source&>(*simulated) : real, samples, ctx);
  return {id, arm.key, std::move(done.analysis), ""};
}

}  // namespace abtest
