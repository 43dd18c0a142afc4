// `abtest bisect`: which toggles (and pairs) make `to` slower than `from` (design §7, §9), or with
// --commits which commit of a range did (bisect_commits.cpp). Every comparison is an experiment;
// the search is one too. Phases: resolve → build arms → search → attribute → report, the last
// reading one outcome for the terminal and for --json alike.
#include "harness/commands/bisect.hpp"
#include "harness/commands/bisect_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "harness/core/analysis.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/bisect_progress.hpp"
#include "harness/experiment/counts_screen.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/request.hpp"
#include "harness/experiment/search_parent.hpp"
#include "harness/experiment/simulation.hpp"
#include "harness/experiment/unit_costs.hpp"
#include "harness/report/bisect_output.hpp"
#include "harness/search/toggle_bisect.hpp"

namespace abtest::cli {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void apply_evidence(const bisect_flags& f, bool simulated, int warmups, oracle_settings& s) {
  check_evidence(f.evidence, {simulated, f.measure.rounds == 0, warmups, "give --rounds N, the rounds of every comparison"});
  copy_evidence(f.evidence, s);
}

namespace {

using report::term_name;

// --- resolve ---------------------------------------------------------------------------------

struct toggle_request {
  std::optional<search::scenario> scenario;  // --simulate
  manifest m;
  variant from, to;
  measurement mm;
  oracle_settings s;
};

void resolve(const bisect_flags& f, const global_options& g, toggle_request& q) {
  request_source source = load_request_source(f.measure.simulate, g.manifest);
  q.scenario = std::move(source.scenario);
  q.m = std::move(source.m);
  q.from = parse_variant_spec(f.from, q.m);
  q.to = parse_variant_spec(f.to, q.m);
  if (q.from == q.to) throw usage_error(fmt::format("--from and --to are both {} — nothing to bisect", q.from.key(q.m)));
  const std::string metric = choose_metric(q.m, f.metric, q.scenario ? &*q.scenario : nullptr);
  q.mm = resolve_measurement(f.measure, q.m, rounds_rule::adaptive_when_zero);
  q.s = search_settings(q.scenario, q.mm, g.command_line);
  q.s.metric = metric;
  q.s.fixed_rounds = q.mm.rounds;
  q.s.warmups = q.scenario ? 0 : q.m.find_benchmark(benchmark_of(q.s.metric))->warmups;
  apply_evidence(f, q.scenario.has_value(), q.s.warmups, q.s);
}

// --- build arms: what the search may vary ------------------------------------------------------

struct search_space {
  arm_plan from;                 // built: the baseline of every comparison
  search::search_options opts;   // with the toggles left out
  std::vector<std::string> notes;
};

// Leaves out what cannot change anything here (inert) and what does not build: `from` with each
// differing toggle alone is built first, as git bisect skips an unbuildable commit.
search_space build_arms(const toggle_request& q, variant_arms& arms) {
  search_space out;
  out.opts.margin = q.mm.margin;
  if (q.mm.rounds > 0) out.opts.matrix_rounds = q.mm.rounds;
  for (const auto& id : inert_toggles(q.m, q.to)) {
    out.opts.exclude.push_back(id);
    out.notes.push_back(fmt::format("{} is inert on this host (requires {}) — left out", id, fmt::join(q.m.toggle(id).requires_caps, ", ")));
  }
  const auto from_arm = arms(q.from.levels);
  if (!from_arm)
    throw user_error(exit_code::build_failed, fmt::format("the build of {} failed — it is the baseline, so nothing can be compared; "
                                                          "last lines of its log:\n{}", q.from.key(q.m), arms.failure(q.from.key(q.m))));
  out.from = *from_arm;
  for (const auto& fac : search::differing_factors(search_toggles(q.m), q.from.levels, q.to.levels, out.opts.exclude)) {
    search::levels single = q.from.levels;
    single[fac.toggle] = fac.high;
    if (!arms(single)) {
      out.opts.exclude.push_back(fac.toggle);
      out.notes.push_back(fmt::format("{} does not build — left out (skipped)", fac.name));
    }
  }
  return out;
}

// --- counts screen (--counts) -----------------------------------------------------------------

// What the counts screen compares (experiment/counts_screen.hpp), and how it counts: an experiment
// of the oracle's with no rounds, its arms counted under Valgrind and not timed.
screen_request screen_of(const toggle_request& q, const arm_plan& from) {
  return {search_toggles(q.m), q.from.levels, q.to.levels, from, benchmark_of(q.s.metric)};
}

arm_counter counter_of(experiment_oracle& oracle) {
  return [&oracle](const std::vector<arm_plan>& arms, const std::string& role) {
    return oracle.run_arms(arms, 0, "bisect", {{"role", role}}).experiment_id;
  };
}

// --- search ----------------------------------------------------------------------------------

search::bisect_report run_search(const toggle_request& q, experiment_oracle& oracle, const search::search_options& opts) {
  try {
    return search::bisect_toggles(oracle, search_toggles(q.m), q.from.levels, q.to.levels, opts);
  } catch (const std::invalid_argument& e) {  // the attribution could not be fitted from what was measured
    throw user_error(exit_code::bench_failed,
                     fmt::format("{} — is {} a metric the benchmark reports? `abtest show` lists an experiment's metrics", e.what(),
                                 q.s.metric));
  }
}

// --- attribute: culprits, offsets, and whether it is a regression ------------------------------

// design §9: culprits push the way of the verdict, offsets pull the other way (a speed-up is never
// the culprit of a slowdown); candidates the confirmation A/Bs did not support are `rejected`.
using toggle_outcome = report::bisect_result;

// `better`: the metric's declared or inferred direction (metric_direction), which decides culprit
// against offset.
toggle_outcome attribute(std::string parent, const std::string& metric, search::bisect_report r, std::vector<std::string> notes,
                         stats::better better) {
  toggle_outcome o;
  o.experiment = std::move(parent);
  o.metric = metric;
  o.r = std::move(r);
  o.notes = std::move(notes);
  o.split = search::split_by_direction(o.r, better);
  // A supported term that makes the metric worse (a time rise, a rate fall) is a regression, whichever
  // list it is in: inside an overall speed-up it is an offset, and still worth exit 1.
  o.worse = stats::log_direction(stats::verdict::slower, better);
  o.regression = o.r.overall.verdict == stats::verdict::slower;
  for (const auto* list : {&o.split.culprits, &o.split.offsets})
    for (const auto& c : *list) o.regression = o.regression || c.effect * o.worse > 0;
  if (!o.r.not_estimable.empty()) {
    std::vector<std::string> terms;
    for (const auto& t : o.r.not_estimable) terms.push_back(term_name(t));
    o.notes.push_back(fmt::format("not estimable — a configuration failed in every round, and the remaining ones cannot "
                                  "separate {} from the other terms; a culprit there would go unnamed",
                                  fmt::join(terms, ", ")));
  }
  return o;
}

// The search's results in the database: the overall comparison as the parent's verdict row (to vs
// from: `show` and `report` print it, and the report reads from it which way the culprits push), each
// term as an effect, and the parent complete.
void store_outcome(db::results_store& store, const toggle_outcome& o, double search_margin) {
  if (o.r.overall.estimate.n > 0)
    store.replace_verdicts(o.experiment, std::vector{overall_record(o.experiment, o.r, o.metric, search_margin,
                                                                    o.worse > 0 ? stats::better::lower : stats::better::higher)});
  std::vector<db::effect_record> effects;
  for (const auto& [list, role] : {std::pair{&o.split.culprits, "culprit"}, std::pair{&o.split.offsets, "offset"},
                                   std::pair{&o.split.rejected, "rejected"}})
    for (const auto& c : *list)
      effects.push_back({o.experiment, o.metric, term_name(c.toggles), c.effect, std::nullopt, c.ci_low, c.ci_high, std::nullopt,
                         std::nullopt, role});
  store.replace_effects(o.experiment, effects);
  if (!o.stopped.empty()) {
    // Stored like a finished search: its decided terms above, and what it left undecided as its last
    // step's note (an effect's role is a decided one's).
    db::bisect_step_record step;
    step.experiment_id = o.experiment;
    step.step = static_cast<int>(store.list_bisect_steps(o.experiment).size());
    step.from_variant = o.r.from_key;
    step.to_variant = o.r.to_key;
    step.note = report::stopped_text(o);
    store.insert_bisect_step(step);
  }
  store.set_experiment_status(o.experiment, db::experiment_status::complete, std::chrono::system_clock::now());
}

// The counts screen's part of the result: its experiment, the toggles it left untimed (listed apart
// from the skipped ones), and each term's mechanism block where one was counted.
void add_screen(toggle_outcome& o, const counts_screen& screen) {
  o.screen_experiment = screen.experiment;
  o.not_timed = screen.not_timed;
  std::erase_if(o.r.skipped, [&](const std::string& t) {
    return std::find(screen.not_timed.begin(), screen.not_timed.end(), t) != screen.not_timed.end();
  });
  for (const auto* list : {&o.split.culprits, &o.split.offsets, &o.split.rejected, &o.r.undecided})
    for (const auto& c : *list)
      for (const auto* block : term_blocks(c, screen)) o.mechanisms.emplace(term_name(c.toggles), *block);
}

// The plan and its price, on stderr before anything is built (the search re-plans with the noise its
// first comparison measures). A forced design that does not fit the toggles is a usage error here.
// Returns the shape of the chosen design, for the step lines.
search_shape announce_plan(const toggle_request& q, const search::unit_costs& costs, search::design_choice design,
                           const global_options& g) {
  std::vector<std::string> exclude = inert_toggles(q.m, q.to);
  const auto k = static_cast<int>(search::differing_factors(search_toggles(q.m), q.from.levels, q.to.levels, exclude).size());
  if (k == 0) return search_shape::factorial;
  const search::search_plan plan = plan_or_usage_error(k, costs, design, q.mm.rounds);
  if (!g.quiet && !g.json) fmt::print(stderr, "{}\n  priced with: {}\n", report::plan_text(plan), costs.basis);
  return plan.chosen.design == search::design_choice::group ? search_shape::group : search_shape::factorial;
}

// The search's builds: only the program the metric comes from.
builder_options search_builder_options(const toggle_request& q) {
  builder_options bo;
  bo.jobs = q.mm.jobs;
  bo.targets = targets_for(q.m, {benchmark_of(q.s.metric)});
  return bo;
}

// --budget-s and Ctrl-C end the search with what it has decided (search_options::stop). With a
// scenario nothing runs: the budget counts the seconds its model says the runs stand for.
std::function<bool()> search_stop(const experiment_oracle& oracle, std::chrono::steady_clock::time_point t0, double budget,
                                  bool simulated) {
  return [&oracle, t0, budget, simulated] {
    return oracle.interrupted() || (budget > 0.0 && (simulated ? oracle.seconds() : seconds_since(t0)) >= budget);
  };
}

// The search's price at the costs recorded `after` it ran, and the full matrix it is weighed
// against: over every toggle that differs, the screened ones too, and each configuration with its
// layouts (runs count every layout's invocations). Every configuration built counts, the
// single-toggle builds that check buildability and failed ones too, not only those the search measured.
void reprice(search::bisect_report& r, const counts_screen& screen, int layouts, int configurations,
             const search::unit_costs& after) {
  const std::size_t screened = std::min<std::size_t>(screen.not_timed.size(), 20);
  r.full_matrix_runs <<= screened;
  r.full_matrix_runs *= std::max(1, layouts);
  r.builds = std::max(r.builds, configurations);
  r.used = search::priced(r.builds, r.runs, after);
  r.full_factorial = search::priced(r.full_factorial.builds << screened, (r.full_factorial.runs << screened) * std::max(1, layouts), after);
}

// The outcome's screen, prices, wall and how it stopped.
void complete_outcome(toggle_outcome& o, const counts_screen& screen, const search::unit_costs& costs,
                      const search::unit_costs& after, bool interrupted, double wall_s, bool simulated) {
  add_screen(o, screen);
  o.costs = costs;
  o.priced_with = after;
  o.wall_s = wall_s;
  if (o.r.stopped) o.stopped = interrupted ? "interrupted" : "budget";
  if (simulated) {  // nothing was built or run: the wall the runs and builds stand for
    o.wall_s = o.r.used.wall_s;
    o.wall_basis = "modeled";
  }
}

// What one toggle search has to hand when it ends.
struct search_state {
  db::results_store& store;
  variant_arms& arms;
  experiment_oracle& oracle;
  const search_space& space;
  counts_screen& screen;
};

// The search's report priced again now that its own builds and runs are recorded (a first search
// found none), attributed in the metric's direction, with --counts the culprits' interactions
// counted, and its notes, costs and wall time.
toggle_outcome conclude(search::bisect_report r, const toggle_request& q, const oracle_settings& s, const search_state& st,
                        const search::unit_costs& costs, std::chrono::steady_clock::time_point t0) {
  const search::unit_costs after = recorded_costs(st.store, q.s.metric, q.scenario ? &*q.scenario : nullptr);
  reprice(r, st.screen, s.layouts, st.arms.configurations(), after);
  toggle_outcome o = attribute(s.parent, s.metric, std::move(r), st.space.notes, metric_direction(q.m, s.metric));
  if (s.counts)
    count_interactions(st.store, screen_of(q, st.space.from), std::ref(st.arms), counter_of(st.oracle), o.split, st.screen);
  for (const auto& n : st.oracle.notes()) o.notes.push_back(n);
  complete_outcome(o, st.screen, costs, after, st.oracle.interrupted(), seconds_since(t0), q.scenario.has_value());
  return o;
}

int bisect_toggles_command(const bisect_flags& f, const global_options& g) {
  const auto t0 = std::chrono::steady_clock::now();
  toggle_request q;
  resolve(f, g, q);
  auto store = open_store(db_path(g, &q.m));
  const experiment_context ctx = context_for(g);
  variant_arms arms(q.m, store, ctx, search_builder_options(q), q.scenario.has_value());
  const search::unit_costs costs = recorded_costs(store, q.s.metric, q.scenario ? &*q.scenario : nullptr);
  const search::design_choice design = parse_design_flag(f.design);
  const search_shape shape = announce_plan(q, costs, design, g);
  search_space space = build_arms(q, arms);
  space.opts.design = design;
  space.opts.costs = costs;

  oracle_settings s = q.s;
  s.parent = create_parent(store, q.m, {space.from, arm_plan{q.to.key(q.m), q.to.levels, "candidate", {}, {}, std::nullopt, {}, {}}},
                           s, {{"from", q.from.key(q.m)}, {"to", q.to.key(q.m)}});
  experiment_oracle oracle(store, q.m, ctx, s, std::ref(arms));
  oracle.set_relinker([&arms](const run_plan& plan, const arm_plan& arm, int k) { return arms.layouts(plan, arm, k); });
  if (!g.quiet && !g.json) fmt::print(stderr, "bisect {}: {} → {} on {}\n", s.parent, q.from.key(q.m), q.to.key(q.m), s.metric);
  // One line per step: where the search is, what it found so far, about how long is left.
  const auto specs = search_toggles(q.m);
  bisect_progress steps(ctx, specs, search::differing_factors(specs, q.from.levels, q.to.levels, space.opts.exclude).size(),
                        shape);
  oracle.set_listener(steps.listener());
  // --budget-s and Ctrl-C end the search with what it has decided (search_options::stop).
  // With a scenario nothing runs: the budget counts the seconds its model says the runs stand for.
  space.opts.stop = search_stop(oracle, t0, f.budget_s, q.scenario.has_value());
  counts_screen screen;
  if (s.counts) screen = screen_counts(store, screen_of(q, space.from), std::ref(arms), counter_of(oracle), space.opts.exclude, space.notes);
  toggle_outcome o = conclude(run_search(q, oracle, space.opts), q, s, {store, arms, oracle, space, screen}, costs, t0);
  store_outcome(store, o, space.opts.search_margin);
  print_result(g, o);
  return o.regression ? static_cast<int>(exit_code::regression) : 0;
}

}  // namespace

static const registrar bisect_command(40, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<bisect_flags>();
  auto* cmd = app.add_subcommand("bisect", "find the toggles (and pairs) or the commit that made a variant slower");
  cmd->add_option("--from", f->from, "the good end, a variant SPEC (default: base)");
  cmd->add_option("--to", f->to, "the slow end, a variant SPEC (default: all)");
  cmd->add_option("--metric", f->metric, "the metric searched (default: proof.total_s, else the only <bench>.total_s)");
  cmd->add_option("--commits", f->commits, "GOOD..BAD: find the first commit that is slower than GOOD");
  cmd->add_option("--toggle,-t", f->toggles, "with --commits: give this toggle ID[=LEVEL] at every commit (default: none — each commit's own defaults)");
  cmd->add_option("--budget-s", f->budget_s,
                  "wall seconds after which the search starts no new step and ends with what it has decided "
                  "(Ctrl-C does the same at once)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--design", f->design, "auto (the cheapest to the precision needed), full, half (resolution V) or group (testing)")
      ->check(CLI::IsMember({"auto", "full", "half", "group"}));
  add_measurement_options(cmd, f->measure, {.rounds_help = "fixed rounds per comparison and matrix (default: adaptive, 10–50; matrix 6)",
                                            .seed_help = "seed of the round orders (default: random, recorded)"});
  add_evidence_options(cmd, f->evidence, "run each A/B comparison's two variants at once, one core each (needs --rounds)",
                       "count the variants under Valgrind first: toggles with which no count moves are not timed; "
                       "a mechanism block per culprit");
  cmd->callback([f, &g, &act] {
    act = [f, &g] {
      if (!f->commits.empty() && !f->measure.simulate.empty())
        throw usage_error("--commits and --simulate do not go together — a scenario has no commits");
      return f->commits.empty() ? bisect_toggles_command(*f, g) : bisect_commits_command(*f, g);
    };
  });
});

}  // namespace abtest::cli
