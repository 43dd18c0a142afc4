// `abtest matrix`: every configuration of a design (full 2^k, resolution-V half fraction, one at a
// time) as arms of one experiment in RMIT rounds; verdicts vs base and factorial effects (DESIGN §7).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <iostream>
#include <set>

#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/commands/matrix_effects.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/scheduler.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/experiment/report.hpp"
#include "harness/experiment/simulation.hpp"
#include "harness/experiment/worktree.hpp"
#include "harness/search/design.hpp"
#include "harness/search/factorial_search.hpp"
#include "harness/search/sharded_effects.hpp"

namespace abtest::cli {
namespace {

struct matrix_flags {
  std::string design = "full", shard, group, canary;
  std::vector<std::string> toggles, metrics, experiments;
  bool nightly = false, analyze = false;
  measurement_flags measure{.rounds = 6};  // --rounds, --margin, --param, --simulate, --seed, --jobs
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

// The frozen canary (DESIGN §7 "Change points"): base built at commit REF in its own worktree and
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

int matrix(const matrix_flags& f, const global_options& g) {
  if (f.analyze) return matrix_analyze(f.experiments, f.group, f.metrics, f.measure.margin_pct, g);
  if (!f.experiments.empty()) throw usage_error("--experiment goes with --analyze");
  const std::optional<search::scenario> scenario = load_simulate_flag(f.measure.simulate);
  const manifest m = scenario ? manifest_from_scenario(*scenario, f.measure.simulate) : load_manifest_for(g);
  const measurement mm = resolve_measurement(f.measure, m, rounds_rule::effects);
  const auto [shard, shards] = f.shard.empty() ? std::pair{0, 1} : parse_shard(f.shard);

  // The factors: the chosen toggles (each at its `on` level or the level given), else every toggle
  // that can change something on this host.
  std::vector<std::string> notes;
  variant high = f.toggles.empty() ? parse_variant_spec("all", m) : variant_from_flags(f.toggles, m);
  if (f.toggles.empty())
    for (const auto& id : inert_toggles(m, high)) {
      high.levels.erase(id);
      notes.push_back(fmt::format("{} is inert on this host — left out of the design (name it with --toggle to include it)", id));
    }
  const auto specs = search_toggles(m);
  const auto factors = search::differing_factors(specs, {}, high.levels);
  if (factors.empty()) throw usage_error("no toggles to vary — give --toggle ID (repeatable)");
  search::design d;
  try {
    d = search::make_design(f.design, static_cast<int>(factors.size()));
  } catch (const std::invalid_argument& e) {
    throw usage_error(fmt::format("--design {} with {} toggles: {} — try --design full|half|oat or fewer toggles", f.design,
                                  factors.size(), e.what()));
  }
  std::vector<std::string> keys, factor_names;
  for (const auto& run : d.runs) keys.push_back(variant_key(search::apply({}, factors, run), m));
  for (const auto& x : factors) factor_names.push_back(x.name);
  const recorded_design design = design_from_json(design_to_json(d, keys, factor_names));

  oracle_settings s;
  s.kind = f.nightly ? "nightly" : "matrix";
  s.metric = f.metrics.empty() ? m.benchmarks.front().name + ".total_s" : f.metrics.front();
  for (const auto& b : m.benchmarks) s.benchmarks.push_back(b.name);
  s.warmups = scenario ? 0 : m.benchmarks.front().warmups;
  s.params = mm.params;
  s.seed = mm.seed;
  if (scenario) {
    s.simulate = mm.simulate;
    s.scenario = &*scenario;
  }
  s.command_line = g.command_line;
  auto store = open_store(db_path(g, &m));
  builder_options bo;
  bo.jobs = mm.jobs;
  const experiment_context ctx = context_for(g);
  variant_arms arms(m, store, ctx, bo, scenario.has_value());

  // This shard's configurations (a split that balances every term within each shard), with run 0
  // (base) always first: every arm is paired with it within rounds, which also ties the shards of
  // one design together.
  const std::vector<int> shard_of = search::balanced_shards(d, shards);
  std::vector<std::size_t> chosen{0};
  for (std::size_t c = 1; c < d.runs.size(); ++c)
    if (shard_of[c] == shard) chosen.push_back(c);
  std::vector<arm_plan> plan_arms;
  nlohmann::json skipped = nlohmann::json::array();
  for (std::size_t c : chosen) {
    const auto arm = arms(search::apply({}, factors, d.runs[c]));
    if (!arm) {
      if (c == 0)
        throw user_error(exit_code::build_failed, fmt::format("the build of base failed — every arm is compared with it; last lines:\n{}",
                                                              arms.failure("base")));
      skipped.push_back({{"variant", keys[c]}, {"reason", "build failed"}, {"log_tail", arms.failure(keys[c])}});
      notes.push_back(fmt::format("{} does not build — skipped", keys[c]));
      continue;
    }
    plan_arms.push_back(*arm);
  }
  if (plan_arms.size() < 2) throw user_error(exit_code::build_failed, "fewer than two configurations built — nothing to compare");
  // The canary runs in every shard, like base: each machine's nights are normalised by its own runs.
  bool has_canary = false;
  if (!f.canary.empty()) {
    if (const auto arm = canary_arm(f.canary, m, store, ctx, scenario.has_value(), mm.jobs)) {
      plan_arms.push_back(*arm);
      has_canary = true;
    } else {
      notes.push_back(fmt::format("the canary ({}) does not build — tonight is not normalised", f.canary));
    }
  }
  nlohmann::json extra = {{"design", design.json}, {"shard", {{"index", shard}, {"count", shards}, {"of_run", shard_of}}},
                          {"skipped", skipped}};
  if (!f.group.empty()) extra["group"] = f.group;
  if (!f.canary.empty()) extra["canary"] = f.canary;
  experiment_oracle oracle(store, m, ctx, s, std::ref(arms));
  if (!g.quiet && !g.json)
    fmt::print(stderr, "matrix: {} design, {} of {} configurations{}{}, {} rounds\n", f.design, plan_arms.size() - (has_canary ? 1 : 0),
               d.runs.size(), shards > 1 ? fmt::format(" (shard {}/{})", shard, shards) : "",
               has_canary ? " + canary" : "", mm.rounds);
  const arm_set_result r = oracle.run_arms(plan_arms, mm.rounds, s.kind, extra);
  analysis_result analysis = r.analysis;

  // Factorial effects per key metric over this experiment's runs of the design (configurations of
  // other shards or failed builds are missing: `matrix --analyze` takes the shards together).
  const auto metrics = f.metrics.empty() ? default_monitor_metrics(r.plan, r.samples) : f.metrics;
  std::vector<db::effect_record> records;
  nlohmann::json effects = nlohmann::json::array();
  std::string tables;
  for (const auto& metric : metrics) {
    if (shards > 1) {
      // A shard holds a part of the design: a fit of it alone would alias every term it cannot see.
      notes.push_back(fmt::format("{}: no factorial effects from one shard — merge the shards' databases (`abtest db merge`) "
                                  "and run `abtest matrix --analyze{}`",
                                  metric, f.group.empty() ? " --experiment ID..." : " --group " + f.group));
      continue;
    }
    const search::shard_values v = design_values(design, r.plan, r.samples, analysis, metric);
    std::vector<std::vector<double>> y(d.runs.size(), std::vector<double>(static_cast<std::size_t>(mm.rounds), NAN));
    for (std::size_t i = 0; i < v.configs.size(); ++i) y[v.configs[i]] = v.y[i];
    try {
      auto e = effects_report(metric, design, search::attribute(d, y, 0.05, mm.margin),
                              search::measured_log_ratios(d, {v}));
      for (auto& rec : e.records) rec.experiment_id = r.experiment_id;
      effects.push_back(e.json);
      tables += e.table;
      records.insert(records.end(), e.records.begin(), e.records.end());
    } catch (const std::invalid_argument& e) {
      notes.push_back(fmt::format("{}: no factorial effects — {} (failed builds leave the design incomplete)", metric, e.what()));
    }
  }
  store.replace_effects(r.experiment_id, records);

  // An old canary may compute another digest than today's base (the circuit changed since): that
  // is expected of a frozen build and does not fail the night; its timings are still its own.
  if (has_canary) {
    auto& canary = analysis.arms.back();
    if (canary.invalid_reason.find("digest") != std::string::npos) {
      notes.push_back("canary: " + canary.invalid_reason + " (expected of a frozen build; its timings still normalise the history)");
      canary.invalid_reason.clear();
    }
  }
  int rounds_done = 0;
  for (const auto& sr : r.samples)
    if (!sr.warmup) rounds_done = std::max(rounds_done, sr.round);
  report_input in{r.experiment_id, r.plan, analysis, nullptr, rounds_done, false, false};
  if (g.json) {
    auto j = json_report(in);
    j["kind"] = s.kind;
    j["design"] = design.json;
    j["shard"] = {{"index", shard}, {"count", shards}};
    j["group"] = f.group;
    j["canary"] = f.canary;
    j["skipped"] = skipped;
    j["effects"] = effects;
    j["runs"] = r.runs;
    j["notes"] = notes;
    std::cout << j.dump(2) << "\n";
  } else if (!g.quiet) {
    for (const auto& n : notes) fmt::print("note: {}\n", n);
    fmt::print("{}{}\n", terminal_report(in), tables);
  }
  return exit_code_for(analysis, false);
}

}  // namespace

static const registrar reg(35, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<matrix_flags>();
  auto* cmd = app.add_subcommand("matrix", "run a factorial design of toggles in RMIT rounds; effects and attribution");
  cmd->add_option("--design", f->design, "full (2^k), half (resolution ≥ V fraction) or oat (one at a time); default full")
      ->check(CLI::IsMember({"full", "half", "oat"}));
  cmd->add_option("--toggle,-t", f->toggles, "a factor, ID or ID=LEVEL (repeatable; default: every toggle not inert here)");
  cmd->add_option("--metric", f->metrics, "metrics to attribute (repeatable; default: each benchmark's total)");
  add_measurement_options(cmd, f->measure, {.rounds_help = "interleaved rounds (default 6)",
                                            .margin_help = "practical margin in percent for culprits (default 1)"});
  cmd->add_flag("--nightly", f->nightly, "record the experiment as the nightly matrix");
  cmd->add_option("--shard", f->shard, "I/N: run only shard I of N of the configurations (plus base), e.g. for a job array; "
                  "each term of the design is balanced within every shard");
  cmd->add_option("--group", f->group, "an id shared by the shards of one design (one night), recorded with each; "
                  "`--analyze --group ID` takes them together");
  cmd->add_option("--canary", f->canary, "REF: also run base built at this frozen commit as the arm `canary`, which "
                  "`abtest history` divides by (with --simulate: the scenario's all-off configuration)");
  cmd->add_flag("--analyze", f->analyze, "run nothing: factorial effects of a design over its shards' experiments "
                "(each paired with its own base), stored with each of them");
  cmd->add_option("--experiment", f->experiments, "with --analyze: an experiment of the design (repeatable; default: "
                  "the members of --group, else the newest matrix and its group)");
  cmd->callback([f, &g, &act] { act = [f, &g] { return matrix(*f, g); }; });
});

}  // namespace abtest::cli
