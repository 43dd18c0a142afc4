// `abtest bisect --commits GOOD..BAD`: which commit of a range made a variant slower — each tested
// commit built in its own worktree with its own defaults, compared with GOOD by the three-valued
// comparison (design §7); the defaults the first bad commit flipped are named (design §5).
// Phases: resolve → build the ends → search → report (one outcome, printed or written as JSON).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <functional>
#include <memory>
#include <utility>

#include "harness/commands/bisect.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/commit_arms.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/search_parent.hpp"
#include "harness/experiment/worktree.hpp"
#include "harness/gate/attribution.hpp"
#include "harness/report/mechanisms.hpp"
#include "harness/report/commit_bisect_output.hpp"
#include "harness/search/commit_bisect.hpp"

namespace abtest::cli {
namespace {

// --- resolve ---------------------------------------------------------------------------------

struct commit_request {
  manifest m;
  std::vector<std::string> range;  // GOOD, then GOOD..BAD oldest first
  variant v;                       // the toggles named (--toggle), at every commit
  std::set<std::string> named;     // their ids: every other toggle is left to each commit's default
  measurement mm;
  oracle_settings s;
};

void resolve(const bisect_flags& f, const global_options& g, commit_request& q) {
  const auto dots = f.commits.find("..");
  if (dots == std::string::npos || dots == 0 || dots + 2 >= f.commits.size())
    throw usage_error(fmt::format("--commits {}: expected GOOD..BAD, e.g. --commits v1.2..HEAD", f.commits));
  q.m = load_manifest_for(g);
  q.range = commit_range(q.m, f.commits.substr(0, dots), f.commits.substr(dots + 2));
  q.v = variant_from_flags(f.toggles, q.m);
  q.named = named_toggles(f.toggles);
  q.s.metric = choose_metric(q.m, f.metric, nullptr);
  q.mm = resolve_measurement(f.measure, q.m, rounds_rule::adaptive_when_zero);
  q.s.fixed_rounds = q.mm.rounds;
  q.s.warmups = q.m.find_benchmark(benchmark_of(q.s.metric))->warmups;
  q.s.params = q.mm.params;
  q.s.seed = q.mm.seed;
  q.s.command_line = g.command_line;
  apply_evidence(f, false, q.s.warmups, q.s);
}

// --- report ----------------------------------------------------------------------------------

// The mechanism blocks of the last comparison that measured `key` (its counts against GOOD's).
std::vector<report::mechanism_entry> step_mechanisms(db::results_store& store, const experiment_oracle& oracle,
                                                     const std::string& key) {
  for (auto step = oracle.steps().rbegin(); step != oracle.steps().rend(); ++step) {
    if (step->to != key || step->experiment_id.empty()) continue;
    std::vector<std::string> variants;
    if (const auto e = store.find_experiment(step->experiment_id))
      for (const auto& arm : run_plan::from_json(e->config).arms) variants.push_back(arm.key);
    return report::find_mechanisms(variants, store.list_verdicts(step->experiment_id), store.list_counts(step->experiment_id));
  }
  return {};
}

// The outcome so far: BAD against GOOD, and the defaults the range flipped.
report::commit_bisect_result outcome_of(const commit_request& q, const search::comparison& overall, commit_arms& arms) {
  report::commit_bisect_result o;
  o.experiment = q.s.parent;
  o.range = q.range;
  o.metric = q.s.metric;
  o.direction = metric_direction(q.m, q.s.metric);
  o.built_as = arms.name();
  o.verdict = overall.verdict;
  o.ratio = overall.estimate.ratio();
  o.counts = q.s.counts;
  o.range_flips = default_flips(arms.resolved(q.range.front()), arms.resolved(q.range.back()));
  return o;
}

// The two ends of the range, built: both must build, or there is nothing to search.
std::pair<arm_plan, arm_plan> build_ends(const std::vector<std::string>& range, commit_arms& arms) {
  const auto good = arms(range.front());
  if (!good)
    throw user_error(exit_code::build_failed, fmt::format("GOOD ({}) does not build — pick a good commit that builds", range.front()));
  const auto bad = arms(range.back());
  if (!bad) throw user_error(exit_code::build_failed, fmt::format("BAD ({}) does not build — pick a bad commit that builds", range.back()));
  return {*good, *bad};
}

// The noisy midpoint search over the range (BAD is slower than GOOD): each commit tested is in
// `o.tested`; the first bad one with the defaults it flipped against its parent, or the candidates.
void search_range(const commit_request& q, commit_arms& arms, const std::function<search::comparison(const arm_plan&)>& compare,
                  const global_options& g, report::commit_bisect_result& o) {
  const auto& range = q.range;
  const search::commit_bisect_result result = search::bisect_commits(range.size(), [&](std::size_t i) {
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
    o.tested.emplace_back(range[i], verdict);
    if (!g.quiet && !g.json) fmt::print(stderr, "  {} {}: {}\n", range[i].substr(0, 12), commit_subject(q.m, range[i]), verdict);
    return state;
  });
  if (result.found) {
    o.first_bad = result.first_bad;
    o.first_bad_subject = commit_subject(q.m, range[result.first_bad]);
    // The defaults it flipped against its parent (built here if the search did not test it).
    if (result.first_bad > 0 && arms(range[result.first_bad - 1]))
      o.flips = default_flips(arms.resolved(range[result.first_bad - 1]), arms.resolved(range[result.first_bad]));
  }
  else o.candidates = result.candidates;
}

}  // namespace

int bisect_commits_command(const bisect_flags& f, const global_options& g) {
  const auto t0 = std::chrono::steady_clock::now();
  commit_request q;
  resolve(f, g, q);
  const auto& range = q.range;

  // Build the ends: both must build, or there is nothing to search.
  auto store = open_store(db_path(g, &q.m));
  const experiment_context ctx = context_for(g);
  // Every commit as it ships: the toggles named at the same level throughout, the rest at its defaults.
  commit_arms arms(q.m, store, ctx, q.v, q.named, q.mm.jobs);
  const std::pair<arm_plan, arm_plan> ends = build_ends(range, arms);
  const arm_plan &good = ends.first, &bad = ends.second;
  q.s.parent = create_parent(store, q.m, {good, bad}, q.s, {{"commits", range}, {"variant", arms.name()}});
  experiment_oracle oracle(store, q.m, ctx, q.s, [](const search::levels&) { return std::nullopt; });
  oracle.set_relinker([&arms](const run_plan& plan, const arm_plan& arm, int k) { return arms.layouts(plan, arm, k); });

  // Search. The three-valued comparison of design §7: SLOWER → bad, SAME/FASTER → good,
  // INCONCLUSIVE after a retry with more rounds → skip; an unbuildable commit → skip.
  auto compare = [&](const arm_plan& candidate) {
    search::comparison c = oracle.compare_arms(good, candidate, {q.mm.margin, 0.05, 0});
    if (c.verdict == stats::verdict::inconclusive) c = oracle.compare_arms(good, candidate, {q.mm.margin, 0.05, 1});
    return c;
  };
  report::commit_bisect_result o = outcome_of(q, compare(bad), arms);
  if (o.verdict == stats::verdict::slower) search_range(q, arms, compare, g, o);
  store.set_experiment_status(q.s.parent, db::experiment_status::complete, std::chrono::system_clock::now());
  if (q.s.counts && o.first_bad)
    if (const auto arm = arms(range[*o.first_bad]))
      o.mechanisms = step_mechanisms(store, oracle, arm->key);
  o.notes = oracle.notes();
  o.runs = oracle.runs();
  o.wall_s = seconds_since(t0);
  print_result(g, o);
  return o.verdict == stats::verdict::slower ? static_cast<int>(exit_code::regression) : 0;
}

}  // namespace abtest::cli
