// `abtest matrix`: every configuration of a design (full 2^k, resolution-V half fraction, one at a
// time) as arms of one experiment in RMIT rounds; verdicts vs base and factorial effects (design §7).
// Phases: resolve → build arms → measure → attribute → render (report/matrix_output.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <tuple>

#include "harness/commands/bundle_flag.hpp"
#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/scheduler.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/matrix_effects.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/experiment/request.hpp"
#include "harness/experiment/simulation.hpp"
#include "harness/experiment/worktree.hpp"
#include "harness/report/matrix_output.hpp"
#include "harness/search/design.hpp"
#include "harness/search/factorial_search.hpp"
#include "harness/search/sharded_effects.hpp"

namespace abtest::cli {
namespace {

struct matrix_flags {
  std::string design = "full", shard, group, canary;
  std::string bundle;  // --bundle DIR: build the configurations for another host and write DIR
  std::vector<std::string> toggles, metrics, experiments;
  bool nightly = false, analyze = false;
  measurement_flags measure{.rounds = 6};  // --rounds, --margin, --param, --simulate, --seed, --jobs
  evidence_flags evidence;                 // --layouts, --duet, --counts, --pin
};

// "I/N" with 0 ≤ I < N.
std::pair<int, int> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  try {
    if (slash != std::string::npos) {
      const int i = std::stoi(text.substr(0, slash)), n = std::stoi(text.substr(slash + 1));
      if (n >= 1 && i >= 0 && i < n) return {i, n};
    }
  } catch (const std::exception&) {
  }
  throw usage_error(fmt::format("--shard {}: expected I/N with 0 ≤ I < N, e.g. --shard 0/4 (Slurm: $SLURM_ARRAY_TASK_ID/4)", text));
}

// The frozen canary (design §7 "Change points"): base built at commit REF in its own worktree and
// build folder, which later nights reuse, so the same program runs every night and only the machine
// moves it. With a scenario nothing is built: the canary is the all-off configuration, which sees
// the scenario's base (machine) but none of the toggles' effects.
std::optional<arm_plan> canary_arm(const std::string& ref, const manifest& m, db::results_store& store,
                                   const experiment_context& ctx, bool simulated, int jobs) {
  if (simulated) return arm_plan{"canary", {}, "", {}, {}, std::nullopt, {}, {}};
  const std::string sha = resolve_commit(m, ref);
  const manifest at = manifest_at_commit(m, sha);
  builder_options bo;
  bo.jobs = jobs;
  bo.build_root = build_root_for(m, sha);
  const auto built = build_and_record(at, variant{}, store, builder(at, bo), ctx);
  if (!built.outcome.ok) return std::nullopt;
  arm_plan arm = arm_for(at, variant{}, built);
  arm.key = "canary";
  return arm;
}

// --- resolve: the flags checked against the manifest, the design and its factors ----------------

struct matrix_request {
  std::optional<search::scenario> scenario;  // --simulate
  manifest m;
  measurement mm;
  int shard = 0, shards = 1;
  std::vector<search::factor> factors;  // the toggles varied, each between off and its level
  search::design d;
  recorded_design design;               // with the variant key per run of the design
  std::vector<std::string> notes;
};

// The factors: the chosen toggles (each at its `on` level or the level given), else every toggle
// that can change something on this host.
void resolve(const matrix_flags& f, const global_options& g, matrix_request& q) {
  request_source source = load_request_source(f.measure.simulate, g.manifest);
  q.scenario = std::move(source.scenario);
  q.m = std::move(source.m);
  q.mm = resolve_measurement(f.measure, q.m, rounds_rule::effects);
  std::tie(q.shard, q.shards) = f.shard.empty() ? std::pair{0, 1} : parse_shard(f.shard);
  variant high = f.toggles.empty() ? parse_variant_spec("all", q.m) : variant_from_flags(f.toggles, q.m);
  if (f.toggles.empty() && f.bundle.empty())  // a bundle's host, not this one, has the capabilities
    for (const auto& id : inert_toggles(q.m, high)) {
      high.levels.erase(id);
      q.notes.push_back(fmt::format("{} is inert on this host — left out of the design (name it with --toggle to include it)", id));
    }
  q.factors = search::differing_factors(search_toggles(q.m), {}, high.levels);
  if (q.factors.empty()) throw usage_error("no toggles to vary — give --toggle ID (repeatable)");
  try {
    q.d = search::make_design(f.design, static_cast<int>(q.factors.size()));
  } catch (const std::invalid_argument& e) {
    throw usage_error(fmt::format("--design {} with {} toggles: {} — try --design full|half|oat or fewer toggles", f.design,
                                  q.factors.size(), e.what()));
  }
  q.design = make_recorded_design(q.m, q.d, q.factors);
  const evidence_flags& ev = f.evidence;
  check_evidence(ev, {q.scenario.has_value(), false, q.scenario ? 0 : q.m.benchmarks.front().warmups, ""});
  if (ev.duet && (q.d.runs.size() != 2 || !f.canary.empty()))
    throw usage_error(fmt::format("--duet runs two variants side by side, and this matrix has {} configurations{} — for one "
                                  "comparison use `abtest run --duet`; `abtest bisect --duet` runs its A/B comparisons as duets",
                                  q.d.runs.size(), f.canary.empty() ? "" : " and a canary"));
  if (ev.layouts > 0 && !f.canary.empty())
    throw usage_error("--layouts relinks the builds of this run, and the canary is a frozen build of another commit — "
                      "leave out --canary or --layouts");
  if (ev.layouts > 0)
    q.notes.push_back(fmt::format("with --layouts the factorial fit's replicates are each configuration's {} layouts (means over "
                                  "the rounds), so its σ̂ carries the between-layout variance",
                                  ev.layouts));
}

oracle_settings settings_for(const matrix_flags& f, const global_options& g, const matrix_request& q) {
  oracle_settings s = search_settings(q.scenario, q.mm, g.command_line);
  s.kind = f.nightly ? "nightly" : "matrix";
  s.metric = f.metrics.empty() ? q.m.benchmarks.front().name + ".total_s" : f.metrics.front();
  for (const auto& b : q.m.benchmarks) s.benchmarks.push_back(b.name);
  s.warmups = q.scenario ? 0 : q.m.benchmarks.front().warmups;
  copy_evidence(f.evidence, s);
  return s;
}

// --- build arms: this shard's configurations (and the canary) ----------------------------------

struct matrix_arms {
  std::vector<arm_plan> arms;  // base first, then this shard's configurations that built, the canary last
  std::vector<int> shard_of;   // shard of each run of the design
  nlohmann::json skipped = nlohmann::json::array();  // configurations whose build failed
  bool has_canary = false;
};

// This shard's configurations (a split that balances every term within each shard), with run 0
// (base) always first: every arm is paired with it within rounds, which also ties the shards of one
// design together. The canary runs in every shard, like base: each machine's nights are normalised
// by its own runs.
matrix_arms build_arms(const matrix_flags& f, matrix_request& q, variant_arms& arms, db::results_store& store,
                       const experiment_context& ctx) {
  matrix_arms out;
  out.shard_of = search::balanced_shards(q.d, q.shards);
  std::vector<std::size_t> chosen{0};
  for (std::size_t c = 1; c < q.d.runs.size(); ++c)
    if (out.shard_of[c] == q.shard) chosen.push_back(c);
  for (std::size_t c : chosen) {
    const auto arm = arms(search::apply({}, q.factors, q.d.runs[c]));
    if (!arm) {
      if (c == 0)
        throw user_error(exit_code::build_failed, fmt::format("the build of base failed — every arm is compared with it; last lines:\n{}",
                                                              arms.failure("base")));
      out.skipped.push_back({{"variant", q.design.keys[c]}, {"reason", "build failed"}, {"log_tail", arms.failure(q.design.keys[c])}});
      q.notes.push_back(fmt::format("{} does not build — skipped", q.design.keys[c]));
      continue;
    }
    out.arms.push_back(*arm);
  }
  if (out.arms.size() < 2) throw user_error(exit_code::build_failed, "fewer than two configurations built — nothing to compare");
  if (!f.canary.empty()) {
    if (const auto arm = canary_arm(f.canary, q.m, store, ctx, q.scenario.has_value(), q.mm.jobs)) {
      out.arms.push_back(*arm);
      out.has_canary = true;
    } else {
      q.notes.push_back(fmt::format("the canary ({}) does not build — tonight is not normalised", f.canary));
    }
  }
  return out;
}

// --- attribute: factorial effects per metric --------------------------------------------------

// Factorial effects per key metric over this experiment's runs of the design (configurations of
// other shards or failed builds are missing: `matrix --analyze` takes the shards together).
design_effects attribute(const matrix_flags& f, matrix_request& q, const arm_set_result& r) {
  const auto metrics = f.metrics.empty() ? default_monitor_metrics(r.plan, r.samples) : f.metrics;
  if (q.shards == 1) return experiment_effects(q.design, r.plan, r.samples, r.analysis, r.experiment_id, metrics, q.mm.margin, q.notes);
  // A shard holds a part of the design: a fit of it alone would alias every term it cannot see.
  for (const auto& metric : metrics)
    q.notes.push_back(fmt::format("{}: no factorial effects from one shard — merge the shards' databases (`abtest db merge`) "
                                  "and run `abtest matrix --analyze{}`",
                                  metric, f.group.empty() ? " --experiment ID..." : " --group " + f.group));
  return {};
}

// `abtest matrix --analyze`: the design's effects over its shards' experiments, stored with each.
int matrix_analyze(const matrix_flags& f, const global_options& g) {
  auto store = open_store(db_path(g, nullptr));
  const design_analysis a = analyze_design(store, f.experiments, f.group, f.metrics, f.measure.margin_pct / 100.0);
  print_result(g, report::design_analysis_result{a.experiments, a.group, a.design.json, a.design.d.runs.size(), a.shards,
                                                a.present, a.effects.json, a.effects.tables, a.notes});
  return a.effects.json.empty() ? static_cast<int>(exit_code::bench_failed) : 0;
}

// The experiment `oracle.run_arms` would run, for --bundle to write instead: the oracle's plan
// (experiment_oracle::begin_arms) without layouts, which a bundle does not carry.
run_plan bundle_plan_of(const oracle_settings& s, const matrix_request& q, std::vector<arm_plan> arms) {
  run_plan plan;
  plan.kind = s.kind;
  for (std::size_t i = 0; i < arms.size(); ++i) arms[i].role = i == 0 ? "baseline" : "candidate";
  plan.arms = std::move(arms);
  plan.benchmarks = s.benchmarks;
  plan.params = s.params;
  plan.rounds = q.mm.rounds;
  plan.warmups = s.warmups;
  plan.seed = s.seed;
  plan.pin = s.pin;
  plan.metric_rules = q.m.metric_rules;
  return plan;
}

// What goes with the experiment into its config: the design, this shard, what was skipped, the
// group and the canary.
nlohmann::json experiment_config(const matrix_flags& f, const matrix_request& q, const matrix_arms& built) {
  nlohmann::json extra = {{"design", q.design.json}, {"shard", {{"index", q.shard}, {"count", q.shards}, {"of_run", built.shard_of}}},
                          {"skipped", built.skipped}};
  if (!f.group.empty()) extra["group"] = f.group;
  if (!f.canary.empty()) extra["canary"] = f.canary;
  return extra;
}

// An old canary may compute another digest than today's base (the circuit changed since): that is
// expected of a frozen build and does not fail the night; its timings are still its own.
void forgive_canary_digest(analysis_result& analysis, std::vector<std::string>& notes) {
  auto& canary = analysis.arms.back();
  if (canary.invalid_reason.find("digest") != std::string::npos) {
    notes.push_back("canary: " + canary.invalid_reason + " (expected of a frozen build; its timings still normalise the history)");
    canary.invalid_reason.clear();
  }
}

int matrix(const matrix_flags& f, const global_options& g) {
  check_bundle_flags(f.bundle, f.evidence, f.measure.simulate, false);
  if (!f.bundle.empty() && f.evidence.duet) throw usage_error("--duet pairs two variants; a matrix bundle runs more — leave out --duet");
  if (f.analyze) return matrix_analyze(f, g);
  if (!f.experiments.empty()) throw usage_error("--experiment goes with --analyze");
  matrix_request q;
  resolve(f, g, q);
  const oracle_settings s = settings_for(f, g, q);
  auto store = open_store(db_path(g, &q.m));
  builder_options bo;
  bo.jobs = q.mm.jobs;
  const experiment_context ctx = context_for(g);
  variant_arms arms(q.m, store, ctx, f.bundle.empty() ? bo : bundle_builder_options(q.m, bo), q.scenario.has_value());
  const matrix_arms built = build_arms(f, q, arms, store, ctx);

  nlohmann::json extra = experiment_config(f, q, built);
  if (!f.bundle.empty()) {
    extra["metric"] = s.metric;  // as the oracle records it
    return write_bundle_for(q.m, bundle_plan_of(s, q, built.arms), f.bundle, g, q.notes, extra);
  }
  experiment_oracle oracle(store, q.m, ctx, s, std::ref(arms));
  oracle.set_relinker([&arms](const run_plan& plan, const arm_plan& arm, int k) { return arms.layouts(plan, arm, k); });
  if (!g.quiet && !g.json)
    fmt::print(stderr, "matrix: {} design, {} of {} configurations{}{}, {} rounds\n", f.design,
               built.arms.size() - (built.has_canary ? 1 : 0), q.d.runs.size(),
               q.shards > 1 ? fmt::format(" (shard {}/{})", q.shard, q.shards) : "", built.has_canary ? " + canary" : "", q.mm.rounds);
  const arm_set_result r = oracle.run_arms(built.arms, q.mm.rounds, s.kind, extra);

  const design_effects effects = attribute(f, q, r);
  store.replace_effects(r.experiment_id, effects.records);
  for (const auto& n : oracle.notes()) q.notes.push_back(n);
  analysis_result analysis = r.analysis;
  if (built.has_canary) forgive_canary_digest(analysis, q.notes);
  const auto counts = s.counts ? store.list_counts(r.experiment_id) : std::vector<db::counts_record>{};
  report::comparison_result verdicts{r.experiment_id, r.plan, analysis, nullptr, rounds_recorded(r.samples), false, false};
  if (!counts.empty()) verdicts.counts = &counts;
  print_result(g, report::matrix_result{verdicts, s.kind, f.group, f.canary, q.shard, q.shards, q.design.json, built.skipped,
                                        effects.json, effects.tables, r.runs, q.notes});
  return exit_code_for(analysis, false);
}

}  // namespace

static const registrar matrix_command(35, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<matrix_flags>();
  auto* cmd = app.add_subcommand("matrix", "run a factorial design of toggles in RMIT rounds; effects and attribution");
  cmd->add_option("--design", f->design, "full (2^k), half (resolution ≥ V fraction) or oat (one at a time); default full")
      ->check(CLI::IsMember({"full", "half", "oat"}));
  cmd->add_option("--toggle,-t", f->toggles, "a factor, ID or ID=LEVEL (repeatable; default: every toggle not inert here)");
  cmd->add_option("--metric", f->metrics, "metrics to attribute (repeatable; default: each benchmark's total)");
  add_measurement_options(cmd, f->measure, {.rounds_help = "interleaved rounds (default 6)",
                                            .margin_help = "practical margin in percent for culprits (default 1)"});
  add_evidence_options(cmd, f->evidence, "a design of two configurations only: run both at once, one core each",
                       "also count each configuration under Valgrind: exact counts and a mechanism block per moved verdict");
  cmd->add_flag("--nightly", f->nightly, "record the experiment as the nightly matrix");
  cmd->add_option("--shard", f->shard, "I/N: run only shard I of N of the configurations (plus base), e.g. for a job array; "
                  "each term of the design is balanced within every shard");
  cmd->add_option("--group", f->group, "an id shared by the shards of one design (one night), recorded with each; "
                  "`--analyze --group ID` takes them together");
  cmd->add_option("--canary", f->canary, "REF: also run base built at this frozen commit as the arm `canary`, which "
                  "`abtest history` divides by (with --simulate: the scenario's all-off configuration)");
  cmd->add_option("--bundle", f->bundle, "build the configurations for another host (build.bundle_args) and write DIR to run "
                                         "there; `abtest import` brings the results back, `--analyze` attributes them")
      ->type_name("DIR");
  cmd->add_flag("--analyze", f->analyze, "run nothing: factorial effects of a design over its shards' experiments "
                "(each paired with its own base), stored with each of them");
  cmd->add_option("--experiment", f->experiments, "with --analyze: an experiment of the design (repeatable; default: "
                  "the members of --group, else the newest matrix and its group)");
  cmd->callback([f, &g, &act] { act = [f, &g] { return matrix(*f, g); }; });
});

}  // namespace abtest::cli
