// `abtest bisect`: which toggles (and pairs) make `to` slower than `from`, or which commit of a range
// made the build slower (DESIGN §7, §9). Every comparison is an experiment; the search is one too.
#include <fmt/format.h>

#include <stdexcept>
#include <fmt/ranges.h>

#include <chrono>
#include <cmath>
#include <iostream>

#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/experiment/simulation.hpp"
#include "harness/experiment/worktree.hpp"
#include "harness/search/commit_bisect.hpp"
#include "harness/search/toggle_bisect.hpp"

namespace abtest::cli {
namespace {

struct bisect_flags {
  std::string from = "base", to = "all", metric, commits;
  std::vector<std::string> toggles;
  // --rounds (0: adaptive comparisons and a 6-round matrix), --margin, --param, --simulate, --seed, --jobs
  measurement_flags measure{.rounds = 0};
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The parent experiment of a search: its arms are the two ends; its steps are the comparisons.
std::string create_parent(db::results_store& store, const manifest& m, const std::vector<arm_plan>& ends,
                          const oracle_settings& s, const nlohmann::json& extra) {
  run_plan plan;
  plan.kind = "bisect";
  plan.arms = ends;
  plan.benchmarks = {benchmark_of(s.metric)};
  plan.params = s.params;
  plan.rounds = s.fixed_rounds;
  plan.adaptive = s.fixed_rounds == 0;
  plan.warmups = s.warmups;
  plan.seed = s.seed;
  plan.simulate = s.simulate;
  nlohmann::json config = extra;
  config["metric"] = s.metric;
  config["role"] = "search";
  return create_experiment(store, &m, plan, s.command_line, current_machine(store), config);
}

std::string term_name(const std::vector<std::string>& toggles) { return fmt::format("{}", fmt::join(toggles, "*")); }

// The overall comparison of a toggle bisection as a stored verdict row of its parent experiment.
// One comparison: its p-value is its own Holm-adjusted one. Medians are the steps' business (null).
db::verdict_record overall_record(const std::string& parent, const search::bisect_report& r, const std::string& metric,
                                  double margin) {
  const auto& e = r.overall.estimate;
  db::verdict_record v;
  v.experiment_id = parent;
  v.variant = r.to_key;
  v.baseline = r.from_key;
  v.metric = metric;
  v.n = e.n;
  v.ratio = e.ratio();
  if (e.has_ci) {
    v.ci_low = e.ratio_low();
    v.ci_high = e.ratio_high();
  }
  v.p_value = v.p_adjusted = e.p_value;
  v.verdict = db::parse<db::verdict_kind>(stats::to_string(r.overall.verdict));
  v.immaterial = stats::decide(e, margin, metric_direction(metric)).immaterial;
  v.note = "the bisection's overall comparison; its steps are experiments of their own (bisect_step)";
  v.created_at = std::chrono::system_clock::now();
  return v;
}

int bisect_toggles_command(const bisect_flags& f, const global_options& g) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::optional<search::scenario> scenario = load_simulate_flag(f.measure.simulate);
  const manifest m = scenario ? manifest_from_scenario(*scenario, f.measure.simulate) : load_manifest_for(g);
  const variant from = parse_variant_spec(f.from, m);
  const variant to = parse_variant_spec(f.to, m);
  if (from == to) throw usage_error(fmt::format("--from and --to are both {} — nothing to bisect", from.key(m)));

  oracle_settings s;
  s.metric = choose_metric(m, f.metric, scenario ? &*scenario : nullptr);
  const measurement mm = resolve_measurement(f.measure, m, rounds_rule::adaptive_when_zero);
  s.fixed_rounds = mm.rounds;
  s.warmups = scenario ? 0 : m.find_benchmark(benchmark_of(s.metric))->warmups;
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
  bo.targets = targets_for(m, {benchmark_of(s.metric)});  // only the program the metric comes from
  const experiment_context ctx = context_for(g);
  variant_arms arms(m, store, ctx, bo, scenario.has_value());
  const auto specs = search_toggles(m);

  // Leave out what cannot change anything here (inert) and what does not build: `from` with each
  // differing toggle alone is built first, as git bisect skips an unbuildable commit.
  search::search_options opts;
  opts.margin = mm.margin;
  if (mm.rounds > 0) opts.matrix_rounds = mm.rounds;
  std::vector<std::string> notes;
  for (const auto& id : inert_toggles(m, to)) {
    opts.exclude.push_back(id);
    notes.push_back(fmt::format("{} is inert on this host (requires {}) — left out", id, fmt::join(m.toggle(id).requires_caps, ", ")));
  }
  const auto from_arm = arms(from.levels);
  if (!from_arm)
    throw user_error(exit_code::build_failed, fmt::format("the build of {} failed — it is the baseline, so nothing can be compared; "
                                                          "last lines of its log:\n{}", from.key(m), arms.failure(from.key(m))));
  for (const auto& fac : search::differing_factors(specs, from.levels, to.levels, opts.exclude)) {
    search::levels single = from.levels;
    single[fac.toggle] = fac.high;
    if (!arms(single)) {
      opts.exclude.push_back(fac.toggle);
      notes.push_back(fmt::format("{} does not build — left out (skipped)", fac.name));
    }
  }
  const std::string parent = create_parent(store, m, {*from_arm, arm_plan{to.key(m), to.levels, "candidate", {}, {}, std::nullopt, {}, {}}}, s,
                                           {{"from", from.key(m)}, {"to", to.key(m)}});
  s.parent = parent;
  experiment_oracle oracle(store, m, ctx, s, std::ref(arms));
  if (!g.quiet && !g.json) fmt::print(stderr, "bisect {}: {} → {} on {}\n", parent, from.key(m), to.key(m), s.metric);
  const search::bisect_report r = [&] {
    try {
      return search::bisect_toggles(oracle, specs, from.levels, to.levels, opts);
    } catch (const std::invalid_argument& e) {  // the attribution could not be fitted from what was measured
      throw user_error(exit_code::bench_failed,
                       fmt::format("{} — is {} a metric the benchmark reports? `abtest show` lists an experiment's metrics",
                                   e.what(), s.metric));
    }
  }();
  const double wall_s = seconds_since(t0);

  // DESIGN §9: culprits push the way of the verdict, offsets pull the other way (a speed-up is never
  // the culprit of a slowdown); candidates the confirmation A/Bs did not support are `rejected`.
  const stats::better better = metric_direction(s.metric);
  const search::attribution split = search::split_by_direction(r, better);
  std::vector<db::effect_record> effects;
  auto terms = [&](const std::vector<search::culprit>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& c : list) {
      nlohmann::json j = {{"toggles", c.toggles}, {"effect", c.effect}, {"ci_low", c.ci_low}, {"ci_high", c.ci_high},
                          {"ratio", std::exp(c.effect)}};
      if (c.confirmed) j["confirmed"] = *c.confirmed;
      out.push_back(std::move(j));
      effects.push_back({parent, s.metric, term_name(c.toggles), c.effect, std::nullopt, c.ci_low, c.ci_high, std::nullopt, std::nullopt});
    }
    return out;
  };
  const nlohmann::json culprits = terms(split.culprits), offsets = terms(split.offsets), rejected = terms(split.rejected);
  // A supported term that makes the metric worse (a time rise, a rate fall) is a regression, whichever
  // list it is in: inside an overall speed-up it is an offset, and still worth exit 1.
  const int worse = stats::log_direction(stats::verdict::slower, better);
  bool regression = r.overall.verdict == stats::verdict::slower;
  for (const auto* list : {&split.culprits, &split.offsets})
    for (const auto& c : *list) regression = regression || c.effect * worse > 0;
  // The overall comparison is the bisection's own verdict row (to vs from): `show` and `report` print
  // it, and the report reads from it which way the culprits push.
  if (r.overall.estimate.n > 0) store.replace_verdicts(parent, std::vector{overall_record(parent, r, s.metric, opts.search_margin)});
  if (!r.not_estimable.empty()) {
    std::vector<std::string> terms;
    for (const auto& t : r.not_estimable) terms.push_back(term_name(t));
    notes.push_back(fmt::format("not estimable — a configuration failed in every round, and the remaining ones cannot "
                                "separate {} from the other terms; a culprit there would go unnamed",
                                fmt::join(terms, ", ")));
  }
  store.replace_effects(parent, effects);
  store.set_experiment_status(parent, db::experiment_status::complete, std::chrono::system_clock::now());

  nlohmann::json out = {{"experiment", parent},
                        {"from", r.from_key},
                        {"to", r.to_key},
                        {"metric", s.metric},
                        {"verdict", stats::to_string(r.overall.verdict)},
                        {"ratio", r.overall.estimate.ratio()},
                        {"culprits", culprits},
                        {"offsets", offsets},
                        {"rejected", rejected},
                        {"skipped", r.skipped},
                        {"runs", r.runs},
                        {"full_matrix_runs", r.full_matrix_runs},
                        {"comparisons", r.comparisons},
                        {"method", r.method},
                        {"wall_s", wall_s},
                        {"notes", notes}};
  if (g.json) {
    std::cout << out.dump(2) << "\n";
  } else if (!g.quiet) {
    for (const auto& n : notes) fmt::print("note: {}\n", n);
    fmt::print("{} vs {} on {}: {} (ratio {:.4f}, 95% CI {:.4f}–{:.4f})\n", r.to_key, r.from_key, s.metric,
               stats::verdict_label(s.metric, r.overall.verdict), r.overall.estimate.ratio(), r.overall.estimate.ratio_low(),
               r.overall.estimate.ratio_high());
    fmt::print("method: {}; {} comparisons, {} runs (the full matrix: {} runs); {:.1f} s\n", r.method, r.comparisons, r.runs,
               r.full_matrix_runs, wall_s);
    if (split.culprits.empty()) fmt::print("no culprit\n");
    for (const auto& c : split.culprits)
      fmt::print("culprit {:<24} ratio {:.4f} (CI {:.4f}–{:.4f})\n", term_name(c.toggles), std::exp(c.effect), std::exp(c.ci_low),
                 std::exp(c.ci_high));
    for (const auto& c : split.offsets)
      fmt::print("offset  {:<24} ratio {:.4f} (CI {:.4f}–{:.4f}) — pulls the other way ({})\n", term_name(c.toggles),
                 std::exp(c.effect), std::exp(c.ci_low), std::exp(c.ci_high), stats::verdict_label(s.metric, c.effect * worse > 0
                                                                                                  ? stats::verdict::slower
                                                                                                  : stats::verdict::faster));
    for (const auto& c : split.rejected)
      fmt::print("candidate {:<22} ratio {:.4f} — the confirmation A/Bs did not support it\n", term_name(c.toggles), std::exp(c.effect));
    if (!r.skipped.empty()) fmt::print("skipped: {}\n", fmt::join(r.skipped, ", "));
  }
  return regression ? static_cast<int>(exit_code::regression) : 0;
}

// --- commits ---------------------------------------------------------------------------------

// Builds the chosen variant of one commit in its own worktree and build root (memoised).
class commit_arms {
 public:
  commit_arms(const manifest& m, db::results_store& store, experiment_context ctx, variant v, int jobs)
      : m_(m), store_(store), ctx_(std::move(ctx)), v_(std::move(v)), jobs_(jobs) {}

  std::optional<arm_plan> operator()(const std::string& sha) {
    if (const auto it = cache_.find(sha); it != cache_.end()) return it->second;
    const manifest& at = *manifests_.emplace(sha, std::make_unique<manifest>(manifest_at_commit(m_, sha))).first->second;
    builder_options bo;
    bo.jobs = jobs_;
    bo.build_root = build_root_for(m_, sha);
    const auto built = build_and_record(at, v_, store_, builder(at, bo), ctx_);
    std::optional<arm_plan> arm;
    if (built.outcome.ok) {
      arm = arm_for(at, v_, built);
      arm->key = fmt::format("{}@{}", v_.key(m_), sha.substr(0, 12));
    }
    return cache_.emplace(sha, arm).first->second;
  }

 private:
  const manifest& m_;
  db::results_store& store_;
  experiment_context ctx_;
  variant v_;
  int jobs_;
  std::map<std::string, std::unique_ptr<manifest>> manifests_;
  std::map<std::string, std::optional<arm_plan>> cache_;
};

int bisect_commits_command(const bisect_flags& f, const global_options& g) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto dots = f.commits.find("..");
  if (dots == std::string::npos || dots == 0 || dots + 2 >= f.commits.size())
    throw usage_error(fmt::format("--commits {}: expected GOOD..BAD, e.g. --commits v1.2..HEAD", f.commits));
  const manifest m = load_manifest_for(g);
  const auto range = commit_range(m, f.commits.substr(0, dots), f.commits.substr(dots + 2));
  const variant v = variant_from_flags(f.toggles, m);

  oracle_settings s;
  s.metric = choose_metric(m, f.metric, nullptr);
  const measurement mm = resolve_measurement(f.measure, m, rounds_rule::adaptive_when_zero);
  s.fixed_rounds = mm.rounds;
  s.warmups = m.find_benchmark(benchmark_of(s.metric))->warmups;
  s.params = mm.params;
  s.seed = mm.seed;
  s.command_line = g.command_line;
  auto store = open_store(db_path(g, &m));
  const experiment_context ctx = context_for(g);
  commit_arms arms(m, store, ctx, v, mm.jobs);
  const auto good = arms(range.front());
  if (!good)
    throw user_error(exit_code::build_failed, fmt::format("GOOD ({}) does not build — pick a good commit that builds", range.front()));
  const auto bad = arms(range.back());
  if (!bad) throw user_error(exit_code::build_failed, fmt::format("BAD ({}) does not build — pick a bad commit that builds", range.back()));
  s.parent = create_parent(store, m, {*good, *bad}, s, {{"commits", range}, {"variant", v.key(m)}});
  experiment_oracle oracle(store, m, ctx, s, [](const search::levels&) { return std::nullopt; });
  const double margin = mm.margin;

  // The three-valued comparison of DESIGN §7: SLOWER → bad, SAME/FASTER → good, INCONCLUSIVE
  // after a retry with more rounds → skip; an unbuildable commit → skip.
  auto compare = [&](const arm_plan& candidate) {
    search::comparison c = oracle.compare_arms(*good, candidate, {margin, 0.05, 0});
    if (c.verdict == stats::verdict::inconclusive) c = oracle.compare_arms(*good, candidate, {margin, 0.05, 1});
    return c;
  };
  const search::comparison overall = compare(*bad);
  nlohmann::json tested = nlohmann::json::array();
  search::commit_bisect_result result;
  if (overall.verdict == stats::verdict::slower) {
    result = search::bisect_commits(range.size(), [&](std::size_t i) {
      const auto arm = arms(range[i]);
      search::commit_state state = search::commit_state::skip;
      std::string verdict = "unbuildable";
      if (arm) {
        const auto c = compare(*arm);
        verdict = stats::to_string(c.verdict);
        state = c.verdict == stats::verdict::slower         ? search::commit_state::bad
                : c.verdict == stats::verdict::inconclusive ? search::commit_state::skip
                                                            : search::commit_state::good;
      }
      tested.push_back({{"commit", range[i]}, {"verdict", verdict}});
      if (!g.quiet && !g.json) fmt::print(stderr, "  {} {}: {}\n", range[i].substr(0, 12), commit_subject(m, range[i]), verdict);
      return state;
    });
  }
  store.set_experiment_status(s.parent, db::experiment_status::complete, std::chrono::system_clock::now());
  nlohmann::json out = {{"experiment", s.parent},   {"good", range.front()},
                        {"bad", range.back()},      {"metric", s.metric},
                        {"variant", v.key(m)},      {"verdict", stats::to_string(overall.verdict)},
                        {"ratio", overall.estimate.ratio()}, {"first_bad", nullptr},
                        {"candidates", nlohmann::json::array()}, {"tested", tested},
                        {"commits", range.size()},  {"runs", oracle.runs()},
                        {"wall_s", seconds_since(t0)}};
  if (result.found) {
    out["first_bad"] = range[result.first_bad];
    out["subject"] = commit_subject(m, range[result.first_bad]);
  } else {
    for (auto i : result.candidates) out["candidates"].push_back(range[i]);
  }
  if (g.json) {
    std::cout << out.dump(2) << "\n";
  } else if (!g.quiet) {
    fmt::print("{} vs {} on {}: {} (ratio {:.4f})\n", range.back().substr(0, 12), range.front().substr(0, 12), s.metric,
               stats::verdict_label(s.metric, overall.verdict), overall.estimate.ratio());
    if (result.found)
      fmt::print("first bad commit: {} {}\n", range[result.first_bad], out["subject"].get<std::string>());
    else if (overall.verdict == stats::verdict::slower)
      fmt::print("the first bad commit is one of: {}\n", fmt::join(out["candidates"].get<std::vector<std::string>>(), ", "));
    else
      fmt::print("BAD is not slower than GOOD — nothing to bisect\n");
    fmt::print("{} commits in the range, {} tested, {} runs, {:.1f} s\n", range.size(), tested.size(), oracle.runs(),
               out["wall_s"].get<double>());
  }
  return overall.verdict == stats::verdict::slower ? static_cast<int>(exit_code::regression) : 0;
}

}  // namespace

static const registrar reg(40, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<bisect_flags>();
  auto* cmd = app.add_subcommand("bisect", "find the toggles (and pairs) or the commit that made a variant slower");
  cmd->add_option("--from", f->from, "the good end, a variant SPEC (default: base)");
  cmd->add_option("--to", f->to, "the slow end, a variant SPEC (default: all)");
  cmd->add_option("--metric", f->metric, "the metric searched (default: proof.total_s, else the only <bench>.total_s)");
  cmd->add_option("--commits", f->commits, "GOOD..BAD: find the first commit that is slower than GOOD");
  cmd->add_option("--toggle,-t", f->toggles, "with --commits: the variant built at every commit (default: base)");
  add_measurement_options(cmd, f->measure, {.rounds_help = "fixed rounds per comparison and matrix (default: adaptive, 10–50; matrix 6)",
                                            .seed_help = "seed of the round orders (default: random, recorded)"});
  cmd->callback([f, &g, &act] {
    act = [f, &g] {
      if (!f->commits.empty() && !f->measure.simulate.empty())
        throw usage_error("--commits and --simulate do not go together — a scenario has no commits");
      return f->commits.empty() ? bisect_toggles_command(*f, g) : bisect_commits_command(*f, g);
    };
  });
});

}  // namespace abtest::cli
