// `abtest bisect --commits GOOD..BAD`: which commit of a range made a variant slower — each tested
// commit built in its own worktree with its own defaults, compared with GOOD by the three-valued
// comparison (design §7); the defaults the first bad commit flipped are named (design §5).
// Phases: resolve → build the ends → search → report (one outcome, printed or written as JSON).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <functional>
#include <iostream>
#include <memory>
#include <utility>

#include "harness/commands/bisect.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/commit_arms.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/search_parent.hpp"
#include "harness/counts/mechanism_format.hpp"
#include "harness/experiment/worktree.hpp"
#include "harness/gate/attribution.hpp"
#include "harness/report/mechanisms.hpp"
#include "harness/report/verdict_json.hpp"
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

struct commit_outcome {
  std::string experiment;
  const commit_request& q;
  search::comparison overall;                                // BAD vs GOOD
  std::vector<std::pair<std::string, std::string>> tested;  // (commit, verdict or "unbuildable"), in test order
  std::optional<std::size_t> first_bad;                     // index into the range
  std::vector<std::size_t> candidates;                      // when the search could not narrow it to one
  std::string built_as;                                     // "defaults", "defaults+CRASH"
  std::vector<default_flip> flips;                          // defaults the first bad commit flipped (design §5)
  std::vector<default_flip> range_flips;                    // … and GOOD..BAD as a whole
  int runs = 0;
  double wall_s = 0;
  std::vector<report::mechanism_entry> mechanisms;  // --counts: the first bad commit's vs GOOD
  std::vector<std::string> notes;                   // the oracle's (counts that failed)
};

nlohmann::json to_json(const commit_outcome& o) {
  const auto& range = o.q.range;
  nlohmann::json tested = nlohmann::json::array(), candidates = nlohmann::json::array();
  for (const auto& [commit, verdict] : o.tested) tested.push_back({{"commit", commit}, {"verdict", verdict}});
  for (auto i : o.candidates) candidates.push_back(range[i]);
  nlohmann::json out = {{"experiment", o.experiment},   {"good", range.front()},
                        {"bad", range.back()},          {"metric", o.q.s.metric},
                        {"variant", o.built_as},  {"verdict", stats::to_string(o.overall.verdict)},
                        {"ratio", o.overall.estimate.ratio()}, {"first_bad", nullptr},
                        {"candidates", candidates},     {"tested", tested},
                        {"commits", range.size()},      {"runs", o.runs},
                        {"wall_s", o.wall_s}};
  if (o.first_bad) {
    out["first_bad"] = range[*o.first_bad];
    out["subject"] = commit_subject(o.q.m, range[*o.first_bad]);
  }
  out["defaults_changed"] = gate::to_json(o.flips);
  out["defaults_changed_in_range"] = gate::to_json(o.range_flips);
  if (o.q.s.counts) {
    out["mechanisms"] = nlohmann::json::array();
    for (const auto& e : o.mechanisms) out["mechanisms"].push_back(report::to_json(e));
  }
  out["notes"] = o.notes;
  return out;
}

std::string to_text(const commit_outcome& o) {
  const auto& range = o.q.range;
  std::string out;
  for (const auto& n : o.notes) out += n + "\n";
  out += fmt::format("{} vs {} on {}: {} (ratio {:.4f})\n", range.back().substr(0, 12), range.front().substr(0, 12),
                                o.q.s.metric, stats::verdict_label(o.q.s.metric, o.overall.verdict, metric_direction(o.q.m, o.q.s.metric)),
                                o.overall.estimate.ratio());
  std::vector<std::string> candidates;
  for (auto i : o.candidates) candidates.push_back(range[i]);
  if (o.first_bad) {
    out += fmt::format("first bad commit: {} {}\n", range[*o.first_bad], commit_subject(o.q.m, range[*o.first_bad]));
    for (const auto& flip : o.flips) out += fmt::format("  {} in this commit\n", to_text(flip));
    for (const auto& e : o.mechanisms) out += counts::format_terminal(e.block, {.indent = "  "});
  }
  else if (o.overall.verdict == stats::verdict::slower)
    out += fmt::format("the first bad commit is one of: {}\n", fmt::join(candidates, ", "));
  else
    out += "BAD is not slower than GOOD — nothing to bisect\n";
  if (!o.first_bad)
    for (const auto& flip : o.range_flips) out += fmt::format("  {} between GOOD and BAD\n", to_text(flip));
  return out + fmt::format("{} commits in the range, {} tested, {} runs, {:.1f} s\n", range.size(), o.tested.size(), o.runs,
                           o.wall_s);
}

}  // namespace

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
                  const global_options& g, commit_outcome& o) {
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
    // The defaults it flipped against its parent (built here if the search did not test it).
    if (result.first_bad > 0 && arms(range[result.first_bad - 1]))
      o.flips = default_flips(arms.resolved(range[result.first_bad - 1]), arms.resolved(range[result.first_bad]));
  }
  else o.candidates = result.candidates;
}

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
  commit_outcome o{q.s.parent, q, compare(bad), {}, std::nullopt, {}, arms.name(), {}, {}, 0, 0, {}, {}};
  o.range_flips = default_flips(arms.resolved(range.front()), arms.resolved(range.back()));
  if (o.overall.verdict == stats::verdict::slower) search_range(q, arms, compare, g, o);
  store.set_experiment_status(q.s.parent, db::experiment_status::complete, std::chrono::system_clock::now());
  if (q.s.counts && o.first_bad)
    if (const auto arm = arms(range[*o.first_bad]))
      o.mechanisms = step_mechanisms(store, oracle, arm->key);
  o.notes = oracle.notes();
  o.runs = oracle.runs();
  o.wall_s = seconds_since(t0);
  if (g.json) std::cout << to_json(o).dump(2) << "\n";
  else if (!g.quiet) fmt::print("{}", to_text(o));
  return o.overall.verdict == stats::verdict::slower ? static_cast<int>(exit_code::regression) : 0;
}

}  // namespace abtest::cli
