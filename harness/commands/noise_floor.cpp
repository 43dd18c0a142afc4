// `abtest noise-floor`: A/A′ — one variant built twice, the second in another code layout, compared in
// RMIT rounds; the effect a rebuild alone can fake is the floor under which effects are unresolvable
// (design §7; layout bias: Mytkowicz et al., "Producing wrong data without doing anything obviously
// wrong!", ASPLOS 2009).
#include <fmt/format.h>


#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/noise_floor.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/experiment/request.hpp"
#include "harness/experiment/simulation.hpp"
#include "harness/report/noise_floor_output.hpp"

namespace abtest::cli {
namespace {

struct noise_flags {
  std::vector<std::string> toggles, metrics;
  std::vector<std::string> layout{"-DCMAKE_CXX_FLAGS=-falign-functions=64 -falign-loops=32"};
  measurement_flags measure;  // --rounds (default 10), --param, --simulate, --seed, --jobs
  int layouts = 0;            // > 0: 2K seeded relinks of one build instead of A′ (design §6)
};

// With --layouts K: one build of the variant linked 2K times with seeded section orders; layouts
// 0..K−1 are A, K..2K−1 are A″. The two-level comparison of the halves gives the floor of a
// `run --layouts K` comparison, and its layout and run standard deviations are the layout
// component on its own.
analysis_result measure_layouts(const noise_flags& f, const global_options& g, const manifest& m, const measurement& mm,
                                const variant& v, db::results_store& store, const std::optional<search::scenario>& scenario,
                                std::string& experiment_id) {
  const experiment_context ctx = context_for(g);
  run_plan plan;
  plan.kind = "noise-floor";
  plan.params = mm.params;
  for (const auto& bench : m.benchmarks) plan.benchmarks.push_back(bench.name);
  plan.rounds = mm.rounds;
  plan.warmups = scenario ? 0 : m.benchmarks.front().warmups;
  plan.seed = mm.seed;
  plan.simulate = mm.simulate;
  plan.layouts = f.layouts;
  plan.metric_rules = m.metric_rules;
  arm_plan arm{v.key(m), v.levels, "", {}, {}, std::nullopt, {}, {}};
  if (scenario) {
    plan.arms = seeded_layouts(arm, plan.seed, 2 * f.layouts);
  } else {
    builder_options bo;
    bo.jobs = mm.jobs;
    const auto built = build_and_record(m, v, store, builder(m, bo), ctx);
    if (!built.outcome.ok)
      throw user_error(exit_code::build_failed, fmt::format("the build of {} failed — last lines of {}:\n{}", built.outcome.key,
                                                            built.outcome.log_path.string(), built.outcome.log_tail));
    plan.arms = layout_arms(m, plan, arm_for(m, v, built), built.outcome, 2 * f.layouts, store, ctx);
  }
  for (int k = f.layouts; k < 2 * f.layouts; ++k) plan.arms[k].key += "~layouts";
  for (auto& a : plan.arms) a.role = a.key == arm.key ? "baseline" : "candidate";
  experiment_id = create_experiment(store, &m, plan, g.command_line, current_machine(store), {{"layouts", f.layouts}});
  std::vector<sample> samples;
  process_source real(m, plan);
  std::optional<simulated_source> simulated;
  if (scenario) simulated.emplace(*scenario, plan);
  return execute(store, m, plan, experiment_id, simulated ? static_cast<sample_source&>(*simulated) : real, samples, ctx)
      .analysis;
}

// The floor over seeded layouts (--layouts K), measured and reported.
int layouts_floor(const noise_flags& f, const global_options& g, const request_source& source, const measurement& mm,
                  const variant& v, db::results_store& store) {
  const manifest& m = source.m;
  std::string id;
  const analysis_result analysis = measure_layouts(f, g, m, mm, v, store, source.scenario, id);
  report::noise_floor_result out{id, v.key(m), mm.rounds, f.layouts, {}, {}, ""};
  for (const metric_floor& mf : noise_floors(analysis, f.metrics, floor_source::layouts))
    out.floors.push_back({mf.row, mf.floor, mf.layout_sd});
  print_result(g, out);
  return exit_code_for(analysis, false);
}

// A and A′: the variant as usual, and the same sources and levels in another layout, its own folder;
// `note` says when the layout arguments left the binaries identical.
struct rebuild_pair {
  arm_plan a, b;
  std::string note;
};

rebuild_pair build_rebuild_pair(const noise_flags& f, const manifest& m, const measurement& mm, const variant& v, bool simulated,
                                db::results_store& store, const experiment_context& ctx) {
  rebuild_pair p{{v.key(m), v.levels, "", {}, {}, std::nullopt, {}, {}},
                 {v.key(m) + "~layout", v.levels, "", {}, {}, std::nullopt, {}, {}},
                 ""};
  if (simulated) return p;
  builder_options bo;
  bo.jobs = mm.jobs;
  const auto first = build_and_record(m, v, store, builder(m, bo), ctx);
  bo.extra_cmake_args = f.layout;
  bo.folder_suffix = "~layout";
  const auto second = build_and_record(m, v, store, builder(m, bo), ctx);
  for (const auto* o : {&first, &second})
    if (!o->outcome.ok)
      throw user_error(exit_code::build_failed, fmt::format("the build of {} failed — last lines of {}:\n{}", o->outcome.key,
                                                            o->outcome.log_path.string(), o->outcome.log_tail));
  p.a = arm_for(m, v, first);
  p.b = arm_for(m, v, second);
  p.b.key += "~layout";
  if (p.a.binaries_digest == p.b.binaries_digest)
    p.note = "the layout arguments left the binaries identical: this measures run-to-run noise only — pass another --layout";
  return p;
}

// The oracle's settings of the A/A′ experiment: every benchmark, the first one's total.
oracle_settings rebuild_settings(const request_source& source, const measurement& mm, const global_options& g) {
  const manifest& m = source.m;
  oracle_settings s = search_settings(source.scenario, mm, g.command_line);
  s.kind = "noise-floor";
  for (const auto& bench : m.benchmarks) s.benchmarks.push_back(bench.name);
  s.metric = m.benchmarks.front().name + ".total_s";
  s.warmups = source.scenario ? 0 : m.benchmarks.front().warmups;
  return s;
}

// The floor of a rebuild in another layout (A/A′), measured and reported.
int rebuild_floor(const noise_flags& f, const global_options& g, const request_source& source, const measurement& mm,
                  const variant& v, db::results_store& store) {
  const manifest& m = source.m;
  const experiment_context ctx = context_for(g);
  auto [a, b, note] = build_rebuild_pair(f, m, mm, v, source.scenario.has_value(), store, ctx);
  const oracle_settings s = rebuild_settings(source, mm, g);
  experiment_oracle oracle(store, m, ctx, s, [](const search::levels&) { return std::nullopt; });
  a.binaries_digest.clear();  // measure even identical binaries: the point is the spread
  b.binaries_digest.clear();
  const arm_set_result r = oracle.run_arms({a, b}, mm.rounds, s.kind, {{"layout", f.layout}});
  const analysis_result& analysis = r.analysis;

  report::noise_floor_result out{r.experiment_id, a.key, mm.rounds, 0, f.layout, {}, note};
  for (const metric_floor& mf : noise_floors(analysis, f.metrics, floor_source::rebuild)) out.floors.push_back({mf.row, mf.floor, 0});
  print_result(g, out);
  return exit_code_for(analysis, false);
}

int noise_floor(const noise_flags& f, const global_options& g) {
  const request_source source = load_request_source(f.measure.simulate, g.manifest);
  const measurement mm = resolve_measurement(f.measure, source.m, rounds_rule::paired);
  const variant v = variant_from_flags(f.toggles, source.m);
  auto store = open_store(db_path(g, &source.m));
  if (f.layouts == 1 || f.layouts < 0)
    throw usage_error(fmt::format("--layouts {}: give at least 2 (each half of the 2K relinks is one side)", f.layouts));
  return f.layouts > 0 ? layouts_floor(f, g, source, mm, v, store) : rebuild_floor(f, g, source, mm, v, store);
}

}  // namespace

static const registrar noise_floor_command(50, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<noise_flags>();
  auto* cmd = app.add_subcommand("noise-floor", "A/A′: how much a rebuild in another code layout alone moves each metric");
  cmd->add_option("--toggle,-t", f->toggles, "the variant, ID or ID=LEVEL (repeatable; default: base)");
  cmd->add_option("--metric", f->metrics, "only these metrics (repeatable; default: all)");
  cmd->add_option("--layout", f->layout, "extra cmake arguments of the A′ build (default: -falign-functions=64 -falign-loops=32)");
  cmd->add_option("--layouts", f->layouts,
                  "instead of A′: one build linked 2K times with seeded layouts; reports the layout sd on its own");
  // No --margin: the floor is the CI's reach, not a verdict against a margin.
  add_measurement_options(cmd, f->measure, {.rounds_help = "interleaved rounds (default 10)", .margin_help = ""});
  cmd->callback([f, &g, &act] { act = [f, &g] { return noise_floor(*f, g); }; });
});

}  // namespace abtest::cli
