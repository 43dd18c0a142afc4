// `abtest run`: build the variant(s) and the baseline, run the benchmarks in randomized interleaved
// rounds, store every sample, print a verdict per metric (design §6, §7, §9).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <iostream>
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
#include "harness/experiment/simulation.hpp"
#include "harness/report/verdict_json.hpp"

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
  const std::optional<search::scenario> scenario = load_simulate_flag(plan.simulate);
  const manifest m = scenario ? manifest_from_scenario(*scenario, plan.simulate)
                              : load_manifest(g.manifest.empty() && e->manifest_path ? std::filesystem::path(*e->manifest_path)
                                                                                     : locate_manifest(g.manifest));
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

int run(const run_flags& f, const global_options& g) {
  check_bundle_flags(f.bundle, f.evidence, f.measure.simulate, f.resume);
  if (f.resume) return resume(f, g);
  const std::optional<search::scenario> scenario = load_simulate_flag(f.measure.simulate);
  const manifest m = scenario ? manifest_from_scenario(*scenario, f.measure.simulate) : load_manifest_for(g);
  if (f.toggles.empty() && f.variants.empty())
    throw usage_error("nothing to compare — give --toggle ID[=LEVEL] (repeatable) or --variant SPEC");
  const measurement mm = resolve_measurement(f.measure, m, rounds_rule::paired);
  const evidence_flags& ev = f.evidence;
  if (f.adaptive && f.max_rounds < 10) throw usage_error("--max-rounds must be at least 10 with --adaptive (the sequence starts at 10)");
  const benchmark_spec* first = f.benches.empty() ? &m.benchmarks.front() : m.find_benchmark(f.benches.front());
  const int warmups = f.warmups >= 0 ? f.warmups : first ? first->warmups : 1;
  check_evidence(ev, {scenario.has_value(), f.adaptive, warmups, "give --rounds, not --adaptive"});
  if (ev.duet && (f.toggles.empty() ? 0 : 1) + f.variants.size() != 1)
    throw usage_error("--duet runs a baseline and one candidate side by side — give one candidate (--toggle … or one --variant)");
  std::optional<exec::duet_cores> duet_cores;
  if (ev.duet && !scenario && f.bundle.empty()) duet_cores = exec::choose_duet_cores(ev.pin);

  const variant baseline = parse_variant_spec(f.baseline, m);
  std::vector<variant> candidates;
  if (!f.toggles.empty()) candidates.push_back(variant_from_flags(f.toggles, m));
  for (const auto& spec : f.variants) candidates.push_back(parse_variant_spec(spec, m));
  for (const auto& c : candidates)
    if (c == baseline) throw usage_error(fmt::format("candidate {} is the baseline itself — pick another --baseline or toggle", c.key(m)));

  run_plan plan;
  plan.params = mm.params;
  for (const auto& b : f.benches) {
    if (!m.find_benchmark(b)) throw usage_error(fmt::format("--bench {}: no such benchmark in {}", b, m.path.string()));
    plan.benchmarks.push_back(b);
  }
  if (plan.benchmarks.empty())
    for (const auto& b : m.benchmarks) plan.benchmarks.push_back(b.name);
  plan.adaptive = f.adaptive;
  plan.rounds = f.adaptive ? f.max_rounds : mm.rounds;
  plan.warmups = f.warmups >= 0 ? f.warmups : m.find_benchmark(plan.benchmarks.front())->warmups;
  plan.seed = mm.seed;
  plan.margin = mm.margin;
  plan.metric_rules = m.metric_rules;
  plan.pin = ev.pin;
  plan.monitor_metrics = f.metrics;
  plan.simulate = mm.simulate;
  plan.layouts = ev.layouts;
  plan.duet = ev.duet;
  if (ev.duet && duet_rounds(plan.rounds) != plan.rounds) {
    // Each block of four rounds holds every combination of core and start order; two blocks at least (plan.hpp).
    plan.rounds = duet_rounds(plan.rounds);
    if (!g.quiet && !g.json)
      fmt::print(stderr, "note: --duet balances cores and start order over blocks of 4 rounds, at least 3 of them: {} rounds\n", plan.rounds);
  }

  std::vector<std::string> notes;
  for (const auto& c : candidates)
    for (const auto& id : f.bundle.empty() ? inert_toggles(m, c) : std::vector<std::string>{})
      notes.push_back(fmt::format("note: {} is inert on this host (requires {}; none found) — it builds but cannot change what runs",
                                  id, fmt::join(m.toggle(id).requires_caps, ", ")));
  for (const auto& w : exec::noise_warnings(exec::read_noise_inputs(ev.pin)))
    if (!g.quiet && !g.json && f.bundle.empty()) fmt::print(stderr, "warning: {}\n", w);

  auto store = open_store(db_path(g, &m));
  const std::int64_t machine_id = current_machine(store);
  builder_options bo;
  bo.jobs = mm.jobs;
  bo.targets = targets_for(m, plan.benchmarks);  // only the programs this run measures
  builder b(m, f.bundle.empty() ? bo : bundle_builder_options(m, bo));
  const experiment_context ctx = context_for(g);
  std::vector<variant> all{baseline};
  all.insert(all.end(), candidates.begin(), candidates.end());
  for (size_t i = 0; scenario && i < all.size(); ++i) {
    const arm_plan arm{all[i].key(m), all[i].levels, i == 0 ? "baseline" : "candidate", {}, {}, std::nullopt, {}, {}};
    if (ev.layouts == 0) plan.arms.push_back(arm);
    for (auto& layout : seeded_layouts(arm, plan.seed, ev.layouts)) plan.arms.push_back(std::move(layout));  // simulated
  }
  std::map<std::string, const build_outcome*> outcomes;  // by variant key, for --layouts
  std::map<std::string, recorded_build> builds;  // by build key: arms that differ only in env toggles share one
  for (size_t i = 0; !scenario && i < all.size(); ++i) {
    const std::string build_key = build_part(all[i], m).key(m);
    auto found = builds.find(build_key);
    if (found == builds.end()) found = builds.emplace(build_key, build_and_record(m, all[i], store, b, ctx)).first;
    const auto& built = found->second;
    const auto& o = built.outcome;
    if (!o.ok) {
      std::string what = o.missing_targets.empty()
                             ? fmt::format("the build of {} failed", o.key)
                             : fmt::format("the build of {} failed: {} defines no target {}", o.key, m.source_dir.string(),
                                           fmt::join(o.missing_targets, ", "));
      // The baseline failing is the project's problem, not a toggle's.
      const std::string fix = build_part(all[i], m).is_base()
                                  ? "the baseline itself does not build: fix the project's build (or build.cmake_args / build.args "
                                    "in the manifest) and try `abtest build` until it passes"
                                  : "fix the build, or leave the toggle out";
      throw user_error(exit_code::build_failed, fmt::format("{} — last lines of {}:\n{}\n({})", what, o.log_path.string(),
                                                            o.log_tail, fix));
    }
    arm_plan arm = arm_for(m, all[i], built, i == 0 ? "baseline" : "candidate");
    if (i > 0 && !arm.binaries_digest.empty() && arm.binaries_digest == plan.arms[0].binaries_digest) {
      notes.push_back(fmt::format("note: {} and {} are the same program (identical binaries) — not measured; verdict SAME by construction",
                                  arm.key, plan.arms[0].key));
      continue;
    }
    outcomes[arm.key] = &o;
    plan.arms.push_back(std::move(arm));
  }
  if (!scenario && ev.layouts > 0 && plan.arms.size() >= 2) {
    // Each variant that is measured becomes K arms, one per seeded relink of its programs.
    std::vector<arm_plan> arms;
    for (const auto& arm : plan.arms)
      for (auto& layout : layout_arms(m, plan, arm, *outcomes.at(arm.key), ev.layouts, store, ctx)) arms.push_back(std::move(layout));
    plan.arms = std::move(arms);
  }
  if (plan.arms.size() < 2 || variant_groups(plan).size() < 2) {
    if (g.json) {
      auto j = report::to_json(report::experiment_result{"", plan.arms[0].key, {}});  // nothing measured: experiment null
      j["notes"] = notes;
      std::cout << j.dump(2) << "\n";
    } else {
      for (const auto& n : notes) fmt::print("{}\n", n);
    }
    return 0;
  }
  if (!f.bundle.empty()) return write_bundle_for(m, plan, f.bundle, g, notes);
  if (duet_cores)  // after the builds, which kept both cores busy
    if (const std::string why = exec::duet_cores_busy(*duet_cores); !why.empty()) throw usage_error(why);
  const std::string id = create_experiment(store, &m, plan, f.command_line, machine_id, {{"counts", ev.counts}});
  if (!g.quiet && !g.json)
    fmt::print(stderr, "experiment {}: {} arms{} × {} benchmark(s), {} warm-up + {}{} rounds, seed {}{}\n", id, plan.arms.size(),
               plan.layouts > 0 ? fmt::format(" ({} variants × {} layouts)", plan.arms.size() / plan.layouts, plan.layouts) : "",
               plan.benchmarks.size(), plan.warmups, f.adaptive ? "up to " : "", plan.rounds, plan.seed,
               plan.duet ? " · duet: both arms at once, one core each" : "");
  if (ev.counts)
    for (auto& warning : measure_counts(store, m, plan, id, ctx)) notes.push_back(std::move(warning));
  std::vector<sample> samples;
  process_source real(m, plan);
  std::optional<simulated_source> simulated;
  if (scenario) simulated.emplace(*scenario, plan);
  std::optional<execution> done;
  try {
    done = execute(store, m, plan, id, simulated ? static_cast<sample_source&>(*simulated) : real, samples, ctx);
  } catch (const user_error&) {
    // A refusal found while measuring (a duet partner using several cores): the experiment cannot
    // go on as planned, so it is marked failed rather than left for --resume to hit again.
    store.set_experiment_status(id, db::experiment_status::failed, std::chrono::system_clock::now());
    throw;
  }
  return finish(m, id, plan, samples, *done, g, f.fail_on_regression, notes);
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
