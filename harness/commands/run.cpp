// `abtest run`: build the variant(s) and the baseline, run the benchmarks in randomized interleaved
// rounds, store every sample, print a verdict per metric (design §6, §7, §9).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <ranges>

#include "harness/commands/bundle_flag.hpp"
#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"
#include "harness/core/variant.hpp"
#include "harness/exec/duet.hpp"
#include "harness/exec/host.hpp"
#include "harness/report/comparison_output.hpp"
#include "harness/experiment/counts.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/prepare_arms.hpp"
#include "harness/experiment/request.hpp"
#include "harness/experiment/simulation.hpp"

namespace abtest::cli {
namespace {

struct run_flags {
  std::vector<std::string> toggles, variants, benches, metrics;
  std::string baseline = "base";
  int max_rounds = 50, warmups = -1;
  bool adaptive = false, fail_on_regression = false, resume = false;
  std::string resume_id;
  std::string bundle;  // --bundle DIR: build for the measuring host and write DIR instead of measuring
  evidence_flags evidence;  // --layouts, --duet, --counts, --pin
  measurement_flags measure;  // --rounds (default 10), --margin, --param, --simulate, --seed, --jobs
  std::string command_line;
};

// Checks that every arm's binaries are still the ones the experiment started with.
void check_binaries_unchanged(const manifest& m, const run_plan& plan) {
  for (const auto& arm : plan.arms) {
    for (const auto& target : benchmark_programs(m)) {
      const auto it = arm.programs.find(target);
      if (!arm.programs.empty() && it == arm.programs.end()) continue;  // not built for this run
      const auto path = it != arm.programs.end() ? it->second : arm.bin / target;
      if (!std::filesystem::exists(path))
        throw usage_error(fmt::format("cannot resume: {} is gone — start a new run", path.string()));
    }
    if (programs_digest(m, arm) != arm.binaries_digest)
      throw usage_error(fmt::format("cannot resume: the binaries of {} changed since the experiment started (rebuilt?) — "
                                    "start a new run", arm.key));
  }
}

int finish(const manifest& m, const std::string& id, const run_plan& plan, const std::vector<sample>& samples,
           const execution& done, const global_options& g, bool fail_on_regression, const std::vector<std::string>& notes) {
  const schedule_result& sched = done.schedule;
  const analysis_result& analysis = done.analysis;
  const auto reference = compare_to_reference(m, plan, samples);
  const int rounds_done = rounds_recorded(samples);
  report::comparison_result in{id, plan, analysis, &reference, rounds_done, sched.stopped_early, sched.interrupted};
  if (!done.counts.empty()) in.counts = &done.counts;
  in.lead = notes;
  in.extra["notes"] = notes;
  print_result(g, in);
  if (sched.interrupted) {
    fmt::print(stderr, "abtest: interrupted — the experiment is incomplete; continue it with `abtest run --resume {}`\n", id);
    return 130;
  }
  return exit_code_for(analysis, fail_on_regression);
}

int resume(const run_flags& f, const global_options& g) {
  const auto path = db_path(g, nullptr);
  // The manifest is needed to re-run the benchmarks; take the experiment's own when none is given.
  auto store = open_store(g.manifest.empty() && g.db.empty() ? db_path(g, nullptr) : path);
  std::optional<db::experiment_record> e;
  if (!f.resume_id.empty()) {
    e = store.find_experiment(f.resume_id);
    if (!e) throw usage_error(fmt::format("no experiment {} in {} — `abtest list` shows them", f.resume_id, path.string()));
  } else {
    for (const auto& x : store.list_experiments())
      if (x.status == db::experiment_status::incomplete && (!e || x.started_at > e->started_at)) e = x;
    if (!e) throw usage_error("no incomplete experiment to resume — `abtest list` shows them");
  }
  if (e->status == db::experiment_status::complete)
    throw usage_error(fmt::format("experiment {} is already complete — `abtest compare {}` re-analyses it", e->id, e->id));
  if (e->status == db::experiment_status::running)
    throw usage_error(fmt::format("experiment {} is still running in another process — wait for it", e->id));
  auto plan = run_plan::from_json(e->config);
  const request_source source =
      load_request_source(plan.simulate, g.manifest.empty() && e->manifest_path ? *e->manifest_path : g.manifest);
  const std::optional<search::scenario>& scenario = source.scenario;
  const manifest& m = source.m;
  if (!scenario) check_binaries_unchanged(m, plan);
  auto samples = store.list_samples(e->id);
  // Take the experiment over (atomically), so a kill of this process is detected in turn.
  if (!store.claim_experiment(e->id, {{"host", exec::collect_host_facts().hostname}, {"pid", ::getpid()}}))
    throw usage_error(fmt::format("experiment {} was resumed by another process meanwhile — `abtest list` shows its state", e->id));
  if (!g.quiet && !g.json) fmt::print(stderr, "resuming {}: {} samples recorded\n", e->id, samples.size());
  std::vector<std::string> notes;
  if (e->config.value("counts", false)) notes = measure_counts(store, m, plan, e->id, context_for(g));
  process_source real(m, plan);
  std::optional<simulated_source> simulated;
  if (scenario) simulated.emplace(*scenario, plan);
  const auto done = execute(store, m, plan, e->id, simulated ? static_cast<sample_source&>(*simulated) : real, samples,
                            context_for(g));
  return finish(m, e->id, plan, samples, done, g, f.fail_on_regression, notes);
}

request_spec spec_of(const run_flags& f) {
  return {f.baseline, f.toggles, f.variants, f.benches, f.adaptive, f.max_rounds, f.warmups, f.metrics, f.bundle, f.evidence};
}

// The run's builder: only the programs it measures; for a bundle, built for the host that measures.
builder builder_for(const experiment_request& q) {
  builder_options bo;
  bo.jobs = q.measure.jobs;
  bo.targets = targets_for(q.m, q.benchmarks);
  return builder(q.m, q.bundle.empty() ? bo : bundle_builder_options(q.m, bo));
}

// Records the experiment of the prepared arms, counts them under Valgrind with --counts, measures
// and reports it.
int measure_run(const experiment_request& q, prepared_arms& p, db::results_store& store, std::int64_t machine_id,
                const run_flags& f, const global_options& g) {
  const run_plan& plan = p.plan;
  const experiment_context ctx = context_for(g);
  const std::string id = create_experiment(store, &q.m, plan, f.command_line, machine_id, {{"counts", q.evidence.counts}});
  if (!g.quiet && !g.json)
    fmt::print(stderr, "experiment {}: {} arms{} × {} benchmark(s), {} warm-up + {}{} rounds, seed {}{}\n", id, plan.arms.size(),
               plan.layouts > 0 ? fmt::format(" ({} variants × {} layouts)", plan.arms.size() / plan.layouts, plan.layouts) : "",
               plan.benchmarks.size(), plan.warmups, q.adaptive ? "up to " : "", plan.rounds, plan.seed,
               plan.duet ? " · duet: both arms at once, one core each" : "");
  if (q.evidence.counts)
    for (auto& warning : measure_counts(store, q.m, plan, id, ctx)) p.notes.push_back(std::move(warning));
  std::vector<sample> samples;
  process_source real(q.m, plan);
  std::optional<simulated_source> simulated;
  if (q.scenario) simulated.emplace(*q.scenario, plan);
  std::optional<execution> done;
  try {
    done = execute(store, q.m, plan, id, simulated ? static_cast<sample_source&>(*simulated) : real, samples, ctx);
  } catch (const user_error&) {
    // A refusal found while measuring (a duet partner using several cores): the experiment cannot
    // go on as planned, so it is marked failed rather than left for --resume to hit again.
    store.set_experiment_status(id, db::experiment_status::failed, std::chrono::system_clock::now());
    throw;
  }
  return finish(q.m, id, plan, samples, *done, g, f.fail_on_regression, p.notes);
}

int run(const run_flags& f, const global_options& g) {
  check_bundle_flags(f.bundle, f.evidence, f.measure.simulate, f.resume);
  if (f.resume) return resume(f, g);
  request_source source = load_request_source(f.measure.simulate, g.manifest);
  const measurement mm = resolve_measurement(f.measure, source.m, rounds_rule::paired);
  const experiment_request q = make_request(std::move(source), mm, spec_of(f));
  std::optional<exec::duet_cores> duet_cores;
  if (q.evidence.duet && !q.simulated() && q.bundle.empty()) duet_cores = exec::choose_duet_cores(q.evidence.pin);
  run_plan plan = plan_of(q);
  if (plan.rounds != q.requested_rounds() && !g.quiet && !g.json)
    fmt::print(stderr, "note: --duet balances cores and start order over blocks of 4 rounds, at least 3 of them: {} rounds\n", plan.rounds);
  for (const auto& w : exec::noise_warnings(exec::read_noise_inputs(q.evidence.pin)))
    if (!g.quiet && !g.json && q.bundle.empty()) fmt::print(stderr, "warning: {}\n", w);
  auto store = open_store(db_path(g, &q.m));
  const std::int64_t machine_id = current_machine(store);
  prepared_arms p = prepare_arms(q, std::move(plan), store, builder_for(q), context_for(g));
  if (!p.comparable()) {  // every candidate is the baseline's program: the notes say why
    print_result(g, report::nothing_measured{p.plan.arms[0].key, p.notes});
    return 0;
  }
  if (!q.bundle.empty()) return write_bundle_for(q.m, p.plan, q.bundle, g, p.notes);
  if (duet_cores)  // after the builds, which kept both cores busy
    if (const std::string why = exec::duet_cores_busy(*duet_cores); !why.empty()) throw usage_error(why);
  return measure_run(q, p, store, machine_id, f, g);
}

}  // namespace

static const registrar run_command(20, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<run_flags>();
  auto* cmd = app.add_subcommand("run", "build the variant and the baseline, run interleaved, give verdicts");
  cmd->add_option("--toggle,-t", f->toggles, "toggle ID (its `on` level) or ID=LEVEL; repeatable: one candidate");
  cmd->add_option("--variant", f->variants, "another candidate as a SPEC (A1=4+B1, all); repeatable");
  cmd->add_option("--baseline", f->baseline, "the baseline SPEC (default: base)");
  cmd->add_option("--bench", f->benches, "only this benchmark (repeatable; default: all)");
  cmd->add_flag("--adaptive", f->adaptive, "stop as soon as every verdict is decisive (always-valid sequence)");
  cmd->add_option("--max-rounds", f->max_rounds, "cap on rounds with --adaptive (default 50)");
  cmd->add_option("--metric", f->metrics, "with --adaptive: the metrics that must be decisive (default: each total)");
  cmd->add_option("--warmups", f->warmups, "warm-up invocations per arm and benchmark (default: the manifest's, 1)");
  add_evidence_options(cmd, f->evidence, "run baseline and candidate at the same time, one core each, swapped every round",
                       "also run each arm's benchmarks once under Valgrind: exact counts and a mechanism block per moved verdict");
  cmd->add_flag("--fail-on-regression", f->fail_on_regression, "exit 1 when a metric is SLOWER");
  add_measurement_options(cmd, f->measure, {.rounds_help = "interleaved rounds (default 10)",
                                            .margin_help = "practical margin in percent for SAME (default 1)"});
  cmd->add_option("--bundle", f->bundle, "build for another host (build.bundle_args) and write DIR to run there, instead of "
                                         "measuring here; `abtest import` brings its results back")->type_name("DIR");
  cmd->add_option("--resume", f->resume_id, "continue an incomplete experiment (default: the latest)")->expected(0, 1);
  cmd->callback([f, cmd, &g, &act] {
    f->resume = cmd->count("--resume") > 0;
    f->command_line = g.command_line;
    act = [f, &g] { return run(*f, g); };
  });
});

}  // namespace abtest::cli
