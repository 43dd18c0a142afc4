// The pull-request gate as one library call: resolve the refs, build and decide, measure and
// confirm, attribute flipped defaults, record alerts (pr_gate.hpp; the gate's logic: harness/gate).
#include "harness/experiment/pr_gate.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <set>
#include <tuple>

#include "harness/alerts/sightings.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/exec/git.hpp"
#include "harness/experiment/commit_arms.hpp"
#include "harness/experiment/counts.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/machine.hpp"
#include "harness/experiment/worktree.hpp"
#include "harness/report/markdown_exporter.hpp"
#include "harness/report/mechanisms.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

// --- resolve ---------------------------------------------------------------------------------

std::string git_line(const manifest& m, const std::vector<std::string>& args) {
  const auto r = exec::run_git(m.source_dir, args);
  return r.ok ? r.out.substr(0, r.out.find('\n')) : "";
}

// The merge base of `ref` (default: origin/main when the clone has it, else main) and the head.
std::string merge_base(const manifest& m, const std::string& flag, const std::string& head) {
  const std::string ref = !flag.empty() ? flag : !git_line(m, {"rev-parse", "--verify", "--quiet", "origin/main^{commit}"}).empty()
                                                     ? "origin/main"
                                                     : "main";
  const std::string tip = resolve_commit(m, ref);
  const std::string base = git_line(m, {"merge-base", tip, head});
  if (base.empty())
    throw usage_error(fmt::format("--base {}: it has no merge base with the head {} — give a base branch the head was made from, "
                                  "and fetch its history (actions/checkout: fetch-depth: 0)", ref, head.substr(0, 12)));
  return base;
}

// What alerts call the head: the branch given, else $GITHUB_HEAD_REF (a pull request's job), else
// the checked-out branch, else the short sha.
std::string head_name(const manifest& m, const std::string& flag, const std::string& sha) {
  if (flag != "HEAD" && sha.rfind(flag, 0) != 0) return flag;
  if (const char* ref = std::getenv("GITHUB_HEAD_REF"); ref && *ref) return ref;
  const std::string branch = git_line(m, {"rev-parse", "--abbrev-ref", "HEAD"});
  return branch.empty() || branch == "HEAD" ? sha.substr(0, 12) : branch;
}

// --- decide ----------------------------------------------------------------------------------

struct pr_sides {
  std::string base, head;
  arm_plan base_arm, head_arm;
};

// What every experiment of one gate shares.
struct pr_context {
  const manifest& m;
  const pr_request& f;
  const pr_sides& s;
  commit_arms& arms;
  db::results_store& store;
  const experiment_context& ctx;
  const std::string& command_line;
};

// Builds both sides (exit 3 when one does not build) and decides, per benchmark of --bench (default:
// all), whether the change can affect it; `notes` hears of inputs that differ.
std::vector<gate::benchmark_decision> decide_benchmarks(const manifest& m, const pr_request& f, commit_arms& arms, pr_sides& s,
                                                        std::vector<std::string>& notes) {
  std::vector<const benchmark_spec*> benches;
  for (const auto& b : m.benchmarks)
    if (f.benches.empty() || std::find(f.benches.begin(), f.benches.end(), b.name) != f.benches.end()) benches.push_back(&b);
  std::vector<gate::benchmark_decision> decisions;
  if (s.base == s.head) {
    for (const auto* b : benches) decisions.push_back({b->name, gate::timing::identical, "the head is the merge base: no change"});
    return decisions;
  }
  for (const auto& [sha, arm, what] : {std::tuple{s.base, &s.base_arm, "the merge base"}, {s.head, &s.head_arm, "the head"}}) {
    const auto built = arms(sha);
    if (!built)
      throw user_error(exit_code::build_failed, fmt::format("{} ({}) does not build — last lines of {}\n(fix its build, or give "
                                                            "--base a commit that builds)", what, sha.substr(0, 12), arms.failure(sha)));
    *arm = *built;
  }
  const fs::path within = fs::relative(m.dir, m.source_dir);  // the manifest's folder inside each side's tree
  const auto fingerprint = [&](const std::string& sha, const arm_plan& arm, const benchmark_spec& b) {
    return gate::fingerprint_of(arms.at(sha), arm, b, f.measure.params, arms.at(sha).source_dir / within);
  };
  for (const auto* b : benches) {
    decisions.push_back(gate::decide(b->name, fingerprint(s.base, s.base_arm, *b), fingerprint(s.head, s.head_arm, *b)));
    if (decisions.back().reason.find("inputs differ") != std::string::npos)
      notes.push_back(fmt::format("{}: its input files differ, but both sides run in {} and read the files there", b->name, m.dir.string()));
  }
  return decisions;
}

// --- measure ---------------------------------------------------------------------------------

// The plan of one experiment of `sides` on `q.benchmarks`: the base's arm the baseline, the rounds
// fixed or adaptive up to --max-rounds, each side linked into its layouts with --layouts.
run_plan pr_plan(const gate::experiment_request& q, const manifest& m, const pr_request& f, const std::vector<arm_plan>& sides,
                 commit_arms& arms) {
  const measurement& mm = f.measure;
  run_plan plan;
  plan.benchmarks = q.benchmarks;
  plan.params = mm.params;
  plan.adaptive = mm.rounds == 0;
  plan.rounds = plan.adaptive ? f.max_rounds : mm.rounds;
  plan.warmups = m.find_benchmark(q.benchmarks.front())->warmups;
  plan.seed = q.seed;
  plan.margin = mm.margin;
  plan.metric_rules = m.metric_rules;
  plan.layouts = f.layouts;
  plan.arms = sides;
  for (auto& arm : plan.arms) arm.role = "candidate";
  plan.arms[0].role = "baseline";
  if (f.layouts > 0) {
    std::vector<arm_plan> linked;
    for (const auto& side : sides) {
      auto k = arms.layouts(plan, side, f.layouts);
      linked.insert(linked.end(), k.begin(), k.end());
    }
    plan.arms = std::move(linked);
  }
  return plan;
}

// The gate's metrics of one experiment: the head's (`head`) into `out`, every further arm's into
// `others` by key; auxiliary and count metrics left out.
void collect_metrics(const analysis_result& analysis, const std::string& head, gate::experiment_outcome& out,
                     std::map<std::string, std::vector<gate::metric_result>>* others) {
  for (const auto& row : analysis.rows) {
    if (is_auxiliary_metric(row.metric) || stats::is_count_metric(row.metric)) continue;
    const gate::metric_result r{row.metric, row.verdict, row.immaterial, row.primary, row.baseline_median, row.candidate_median, row.note,
                                row.policy};
    if (row.variant == head) out.metrics.push_back(r);
    else if (others) (*others)[row.variant].push_back(r);
  }
}

// What the gate reads of a finished experiment: its rounds, failures, the head's metrics (and every
// further arm's into `others`), and with --counts a mechanism block per moved benchmark.
void read_outcome(const pr_context& c, const run_plan& plan, const execution& done, const std::string& head, bool counted,
                  gate::experiment_outcome& out, std::map<std::string, std::vector<gate::metric_result>>* others) {
  out.rounds = done.schedule.rounds_done;
  out.stopped_early = done.schedule.stopped_early;
  out.failed = done.analysis.any_failed();
  collect_metrics(done.analysis, head, out, others);
  if (counted) {
    std::vector<std::string> variants;
    for (const auto& arm : plan.arms) variants.push_back(arm.key);
    for (const auto& e : report::find_mechanisms(variants, c.store.list_verdicts(out.id), c.store.list_counts(out.id)))
      out.mechanisms.push_back(report::mechanism_markdown(e));
  }
  // Per arm, named as the run report names them: both sides failing alike read as two lines, not one twice.
  for (std::size_t a = 0; a < done.analysis.arms.size(); ++a)
    if (const auto& health = done.analysis.arms[a]; !health.first_error.empty())
      out.notes.push_back(fmt::format("a benchmark failed: {} {}", plan.arms[a].key, health.first_error));
}

// One experiment of `sides` (the base first, its baseline; then the head; then any other arm) on
// `q.benchmarks`, until `deadline`. `out.metrics` are the head's against the base; `others` gets
// every further arm's by key. The budget is of the measurements: it starts after the builds, whose
// time the cache and the project decide.
gate::experiment_outcome measure_pr(const pr_context& c, const gate::experiment_request& q, const std::vector<arm_plan>& sides,
                                    clock_type::time_point deadline,
                                    std::map<std::string, std::vector<gate::metric_result>>* others = nullptr) {
  const run_plan plan = pr_plan(q, c.m, c.f, sides, c.arms);
  // --counts: the first experiment's arms counted once under Valgrind; the rerun needs no second count.
  const bool counted = c.f.counts && q.attempt == 0;
  const std::string id = create_experiment(c.store, &c.m, plan, c.command_line, current_machine(c.store),
                                           {{"pr", {{"base", c.s.base}, {"head", c.s.head}, {"attempt", q.attempt}}}, {"counts", counted}});
  gate::experiment_outcome out;
  if (counted) out.notes = measure_counts(c.store, c.m, plan, id, c.ctx);
  bool budget_ended = false;
  experiment_context budgeted = c.ctx;
  budgeted.stop_between_rounds = [&] { return budget_ended = clock_type::now() >= deadline; };
  static constexpr const char* what[] = {"experiment", "confirmation", "attribution"};
  c.ctx.report(progress::kind::experiment, fmt::format("{} {}: {} × {} on {}, seed {}", what[std::min(q.attempt, 2)], id,
                                                       c.s.head.substr(0, 12), c.s.base.substr(0, 12), fmt::join(q.benchmarks, ", "), q.seed));
  std::vector<sample> samples;
  process_source source(c.m, plan);
  const execution done = execute(c.store, c.m, plan, id, source, samples, budgeted);
  // The budget ends a gate's experiment, not a run to resume: its verdicts are what it measured.
  if (budget_ended) c.store.set_experiment_status(id, db::experiment_status::complete, std::chrono::system_clock::now());
  if (done.schedule.interrupted && !budget_ended)
    throw user_error(exit_code::bench_failed, fmt::format("interrupted — experiment {} is incomplete; run `abtest pr` again", id));
  out.id = id;
  out.seed = q.seed;
  out.budget_ended = budget_ended;
  read_outcome(c, plan, done, sides[1].key, counted, out, others);
  return out;
}

// The attribution of the confirmed changes to the defaults the change flipped (design §5): the head
// built once per flipped toggle with the base's level, timed in one experiment beside the base and
// the head on the benchmarks that moved, with what is left of the budget's confirmation share.
gate::flip_attribution attribute_flips(const pr_context& c, const gate::pr_report& rep) {
  const auto& [m, f, s, arms] = std::tie(c.m, c.f, c.s, c.arms);
  gate::flip_attribution a;
  std::vector<arm_plan> sides{s.base_arm, s.head_arm};
  for (const auto& flip : rep.flips) {
    gate::reverted_default r{flip.toggle, flip.from_level.value_or(""), {}, {}};
    if (!flip.from_level || !m.find_toggle(flip.toggle)) {
      a.notes.push_back(fmt::format("{}: the base's value is no level of the manifest's toggle — it cannot be put back alone", to_text(flip)));
      continue;
    }
    if (const auto arm = arms.with_level(s.head, flip.toggle, *flip.from_level)) {
      r.arm = arm->key;
      sides.push_back(*arm);
    } else {
      a.notes.push_back(fmt::format("the head does not build with {}={} — {}", flip.toggle, *flip.from_level,
                                    arms.failure(s.head + "+" + flip.toggle + "=" + *flip.from_level)));
    }
    a.reverted.push_back(std::move(r));
  }
  std::set<std::string> benches;
  for (const auto& c : rep.result.changed)
    if (c.state == gate::confirmation::confirmed) benches.insert(alerts::benchmark_of(c.first.metric));
  if (sides.size() < 3 || benches.empty()) return a;
  const gate::experiment_request q{{benches.begin(), benches.end()}, gate::confirmation_seed(gate::confirmation_seed(f.measure.seed)), 2};
  const auto deadline = clock_type::now() + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(f.budget_s * 0.4));
  std::map<std::string, std::vector<gate::metric_result>> reverted;
  a.experiment = measure_pr(c, q, sides, deadline, &reverted);
  for (auto& r : a.reverted) r.metrics = reverted[r.arm];
  return a;
}

// --- alerts ----------------------------------------------------------------------------------

gate::alert_ref ref_of(const db::alert_record& a) {
  gate::alert_ref r{a.id, std::string(db::to_string(a.source)), a.subject, std::string(db::to_string(a.state)), {}};
  for (const auto& metric : a.metrics) r.metrics.push_back(metric.metric);
  return r;
}

// Confirmed regressions become sightings of the head's branch; then the other open alerts of the
// metrics this gate measured are the ones the pull request touches.
void record_alerts(db::results_store& store, gate::pr_report& rep) {
  std::vector<db::alert_sighting> seen;
  for (const auto& c : rep.result.changed) {
    if (c.state != gate::confirmation::confirmed || c.first.verdict != stats::verdict::slower) continue;
    db::alert_sighting s;
    s.source = db::alert_source::pr;
    s.subject = rep.head_ref;
    s.benchmark = alerts::benchmark_of(c.first.metric);
    s.metric = c.first.metric;
    s.change = rep.base + ".." + rep.head;
    s.ratio = c.first.estimate.ratio();
    if (c.first.estimate.has_ci) s.ci_low = c.first.estimate.ratio_low(), s.ci_high = c.first.estimate.ratio_high();
    s.before_median = c.first.base_median;
    s.after_median = c.first.head_median;
    s.experiment_id = rep.result.second->id;
    seen.push_back(std::move(s));
  }
  std::set<std::int64_t> recorded;
  if (!seen.empty())
    for (const auto id : store.record_sightings(seen))
      if (recorded.insert(id).second)
        if (const auto a = store.find_alert(id)) rep.alerts_recorded.push_back(ref_of(*a));
  std::set<std::string> measured;
  if (rep.result.first)
    for (const auto& mr : rep.result.first->metrics) measured.insert(mr.metric);
  for (const auto& a : store.list_alerts(std::nullopt, /*open_only=*/true)) {
    if (recorded.contains(a.id)) continue;
    if (std::any_of(a.metrics.begin(), a.metrics.end(), [&](const auto& x) { return measured.contains(x.metric); }))
      rep.alerts_touched.push_back(ref_of(a));
  }
}

// --- the gate ----------------------------------------------------------------------------------

// The head, its merge base with --base, and what alerts call the head.
void resolve_refs(const manifest& m, const pr_request& f, gate::pr_report& rep) {
  rep.head = resolve_commit(m, f.head);
  rep.base = merge_base(m, f.base, rep.head);
  rep.head_ref = head_name(m, f.head, rep.head);
}

bool any_confirmed(const gate::pr_report& rep) {
  return std::any_of(rep.result.changed.begin(), rep.result.changed.end(),
                     [](const auto& c) { return c.state == gate::confirmation::confirmed; });
}

// How each experiment's rounds are decided, as the comment says it.
std::string rounds_rule_text(const pr_request& f, const measurement& mm) {
  return mm.rounds > 0 ? fmt::format("{} rounds{}", mm.rounds, f.layouts > 0 ? fmt::format(", {} layouts per side", f.layouts) : "")
                       : fmt::format("adaptive: from 10 rounds until every watched metric is decisive (always-valid CI), "
                                     "at most {}", f.max_rounds);
}

}  // namespace

gate::pr_report start_pr_report(const manifest& m, const pr_request& f) {
  const measurement& mm = f.measure;
  if (f.budget_s <= 0) throw usage_error(fmt::format("--budget-s {}: give a positive number of seconds", f.budget_s));
  if (mm.rounds == 0 && f.max_rounds < 10) throw usage_error("--max-rounds must be at least 10 (the adaptive sequence starts at 10)");
  if (f.layouts == 1 || f.layouts < 0) throw usage_error("--layouts K needs K ≥ 2 seeded links per side");
  if (f.layouts > 0 && mm.rounds == 0) throw usage_error("--layouts runs fixed rounds — give --rounds N as well");
  if (f.counts) require_valgrind();
  for (const auto& b : f.benches)
    if (!m.find_benchmark(b)) throw usage_error(fmt::format("--bench {}: no such benchmark in {}", b, m.path.string()));
  gate::pr_report rep;
  rep.policy = gate::parse_fail_on(f.fail_on);
  rep.budget_s = f.budget_s;
  variant_from_flags(f.toggles, m);  // a usage error for an unknown toggle or level
  resolve_refs(m, f, rep);
  rep.rounds_rule = rounds_rule_text(f, mm);
  return rep;
}

void run_pr_gate(const manifest& m, const pr_request& f, db::results_store& store, const experiment_context& ctx,
                 const std::string& command_line, gate::pr_report& rep) {
  const auto t0 = clock_type::now();
  const measurement& mm = f.measure;
  // Both sides as they ship: the toggles named on both alike, every other at each commit's own default.
  commit_arms arms(m, store, ctx, variant_from_flags(f.toggles, m), named_toggles(f.toggles), mm.jobs);
  rep.variant = arms.name();
  pr_sides s{rep.base, rep.head, {}, {}};
  std::vector<gate::benchmark_decision> decisions = decide_benchmarks(m, f, arms, s, rep.notes);
  if (s.base != s.head) rep.flips = default_flips(arms.resolved(s.base), arms.resolved(s.head));

  // The first experiment gets 60% of the budget when a confirmation may follow, the confirmation
  // what is left.
  const auto measuring_since = clock_type::now();
  const gate::gate_options options{f.no_confirm ? gate::confirm_mode::none : gate::confirm_mode::rerun, mm.seed};
  const pr_context pc{m, f, s, arms, store, ctx, command_line};
  rep.result = gate::run_gate(std::move(decisions), options, [&](const gate::experiment_request& q) {
    const double share = q.attempt == 0 && !f.no_confirm ? 0.6 : 1.0;
    const auto deadline = measuring_since + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(f.budget_s * share));
    return measure_pr(pc, q, {s.base_arm, s.head_arm}, deadline);
  });
  if (!rep.flips.empty() && rep.result.second && any_confirmed(rep)) rep.attribution = attribute_flips(pc, rep);
  record_alerts(store, rep);
  rep.exit_code = gate::policy_exit_code(rep.result, rep.policy);
  rep.wall_s = std::chrono::duration<double>(clock_type::now() - t0).count();
}

}  // namespace abtest
