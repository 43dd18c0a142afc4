// `abtest pr [--base REF] [--head REF]`: the pull-request gate — the merge base and the head built as
// commit arms with their own defaults (a default the change flips is named and attributed, design §5), the benchmarks whose programs differ timed interleaved, every move confirmed by a
// second experiment, a markdown comment and an exit code by policy (design §9.2; the logic: harness/gate).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <tuple>

#include "harness/alerts/sightings.hpp"
#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/exec/git.hpp"
#include "harness/experiment/commit_arms.hpp"
#include "harness/experiment/counts.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/worktree.hpp"
#include "harness/gate/pr_report.hpp"
#include "harness/report/markdown_exporter.hpp"

namespace abtest::cli {
namespace {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

struct pr_flags {
  std::string base, head = "HEAD";
  std::vector<std::string> toggles, benches;
  double budget_s = 600;
  int max_rounds = 30, layouts = 0;
  bool no_confirm = false, counts = false;
  std::string fail_on = "regression";
  std::string comment;  // default: <manifest dir>/.abtest/pr-comment.md
  measurement_flags measure;
};

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

// Builds both sides (exit 3 when one does not build) and decides, per benchmark of --bench (default:
// all), whether the change can affect it; `notes` hears of inputs that differ.
std::vector<gate::benchmark_decision> decide_benchmarks(const manifest& m, const pr_flags& f, const measurement& mm,
                                                        commit_arms& arms, pr_sides& s, std::vector<std::string>& notes) {
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
    return gate::fingerprint_of(arms.at(sha), arm, b, mm.params, arms.at(sha).source_dir / within);
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
run_plan pr_plan(const gate::experiment_request& q, const manifest& m, const measurement& mm, const pr_flags& f,
                 const std::vector<arm_plan>& sides, commit_arms& arms) {
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

// One experiment of `sides` (the base first, its baseline; then the head; then any other arm) on
// `q.benchmarks`, until `deadline`. `out.metrics` are the head's against the base; `others` gets
// every further arm's by key. The budget is of the measurements: it starts after the builds, whose
// time the cache and the project decide.
gate::experiment_outcome measure_pr(const gate::experiment_request& q, const manifest& m, const measurement& mm, const pr_flags& f,
                                    const pr_sides& s, const std::vector<arm_plan>& sides, commit_arms& arms, db::results_store& store,
                                    const experiment_context& ctx, clock_type::time_point deadline, const global_options& g,
                                    std::map<std::string, std::vector<gate::metric_result>>* others = nullptr) {
  const run_plan plan = pr_plan(q, m, mm, f, sides, arms);
  // --counts: the first experiment's arms counted once under Valgrind; the rerun needs no second count.
  const bool counted = f.counts && q.attempt == 0;
  const std::string id = create_experiment(store, &m, plan, g.command_line, current_machine(store),
                                           {{"pr", {{"base", s.base}, {"head", s.head}, {"attempt", q.attempt}}}, {"counts", counted}});
  gate::experiment_outcome out;
  if (counted) out.notes = measure_counts(store, m, plan, id, ctx);
  bool budget_ended = false;
  experiment_context budgeted = ctx;
  budgeted.stop_between_rounds = [&] { return budget_ended = clock_type::now() >= deadline; };
  static constexpr const char* what[] = {"experiment", "confirmation", "attribution"};
  if (!g.quiet && !g.json)
    fmt::print(stderr, "{} {}: {} × {} on {}, seed {}\n", what[std::min(q.attempt, 2)], id, s.head.substr(0, 12), s.base.substr(0, 12),
               fmt::join(q.benchmarks, ", "), q.seed);
  std::vector<sample> samples;
  process_source source(m, plan);
  const execution done = execute(store, m, plan, id, source, samples, budgeted);
  // The budget ends a gate's experiment, not a run to resume: its verdicts are what it measured.
  if (budget_ended) store.set_experiment_status(id, db::experiment_status::complete, std::chrono::system_clock::now());
  out.id = id;
  out.seed = q.seed;
  out.rounds = done.schedule.rounds_done;
  out.stopped_early = done.schedule.stopped_early;
  out.budget_ended = budget_ended;
  out.failed = done.analysis.any_failed();
  collect_metrics(done.analysis, sides[1].key, out, others);
  if (counted) {
    std::vector<std::string> variants;
    for (const auto& arm : plan.arms) variants.push_back(arm.key);
    for (const auto& e : report::find_mechanisms(variants, store.list_verdicts(id), store.list_counts(id)))
      out.mechanisms.push_back(report::mechanism_markdown(e));
  }
  // Per arm, named as the run report names them: both sides failing alike read as two lines, not one twice.
  for (std::size_t a = 0; a < done.analysis.arms.size(); ++a)
    if (const auto& health = done.analysis.arms[a]; !health.first_error.empty())
      out.notes.push_back(fmt::format("a benchmark failed: {} {}", plan.arms[a].key, health.first_error));
  if (done.schedule.interrupted && !budget_ended)
    throw user_error(exit_code::bench_failed, fmt::format("interrupted — experiment {} is incomplete; run `abtest pr` again", id));
  return out;
}

// The attribution of the confirmed changes to the defaults the change flipped (design §5): the head
// built once per flipped toggle with the base's level, timed in one experiment beside the base and
// the head on the benchmarks that moved, with what is left of the budget's confirmation share.
gate::flip_attribution attribute_flips(const gate::pr_report& rep, const manifest& m, const measurement& mm, const pr_flags& f,
                                       const pr_sides& s, commit_arms& arms, db::results_store& store, const experiment_context& ctx,
                                       const global_options& g) {
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
  const gate::experiment_request q{{benches.begin(), benches.end()}, gate::confirmation_seed(gate::confirmation_seed(mm.seed)), 2};
  const auto deadline = clock_type::now() + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(f.budget_s * 0.4));
  std::map<std::string, std::vector<gate::metric_result>> reverted;
  a.experiment = measure_pr(q, m, mm, f, s, sides, arms, store, ctx, deadline, g, &reverted);
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

// --- report ----------------------------------------------------------------------------------

void write_comment(const fs::path& file, const std::string& markdown) {
  if (file.has_parent_path()) fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::trunc);
  out << markdown;
  if (!out.flush()) throw usage_error(fmt::format("--comment {}: cannot write it — give a writable path", file.string()));
  if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary) {
    std::ofstream step(summary, std::ios::app);
    step << markdown << "\n";
    if (!step.flush()) throw usage_error(fmt::format("$GITHUB_STEP_SUMMARY ({}): cannot append to it — unset it or fix the path", summary));
  }
}

// The head, its merge base with --base, and what alerts call the head.
void resolve_refs(const manifest& m, const pr_flags& f, gate::pr_report& rep) {
  rep.head = resolve_commit(m, f.head);
  rep.base = merge_base(m, f.base, rep.head);
  rep.head_ref = head_name(m, f.head, rep.head);
}

bool any_confirmed(const gate::pr_report& rep) {
  return std::any_of(rep.result.changed.begin(), rep.result.changed.end(),
                     [](const auto& c) { return c.state == gate::confirmation::confirmed; });
}

// What the gate's flags need, checked before anything is built (usage errors, exit 2).
void check_pr_flags(const pr_flags& f, const manifest& m, const measurement& mm) {
  if (f.budget_s <= 0) throw usage_error(fmt::format("--budget-s {}: give a positive number of seconds", f.budget_s));
  if (mm.rounds == 0 && f.max_rounds < 10) throw usage_error("--max-rounds must be at least 10 (the adaptive sequence starts at 10)");
  if (f.layouts == 1 || f.layouts < 0) throw usage_error("--layouts K needs K ≥ 2 seeded links per side");
  if (f.layouts > 0 && mm.rounds == 0) throw usage_error("--layouts runs fixed rounds — give --rounds N as well");
  if (f.counts) require_valgrind();
  for (const auto& b : f.benches)
    if (!m.find_benchmark(b)) throw usage_error(fmt::format("--bench {}: no such benchmark in {}", b, m.path.string()));
}

// How each experiment's rounds are decided, as the comment says it.
std::string rounds_rule_text(const pr_flags& f, const measurement& mm) {
  return mm.rounds > 0 ? fmt::format("{} rounds{}", mm.rounds, f.layouts > 0 ? fmt::format(", {} layouts per side", f.layouts) : "")
                       : fmt::format("adaptive: from 10 rounds until every watched metric is decisive (always-valid CI), "
                                     "at most {}", f.max_rounds);
}

int run_pr_gate(const pr_flags& f, const global_options& g) {
  const auto t0 = clock_type::now();
  gate::pr_report rep;
  rep.policy = gate::parse_fail_on(f.fail_on);
  rep.budget_s = f.budget_s;
  const manifest m = load_manifest_for(g);
  const measurement mm = resolve_measurement(f.measure, m, rounds_rule::adaptive_when_zero);
  check_pr_flags(f, m, mm);
  const variant v = variant_from_flags(f.toggles, m);
  resolve_refs(m, f, rep);
  rep.rounds_rule = rounds_rule_text(f, mm);

  auto store = open_store(db_path(g, &m));
  const experiment_context ctx = context_for(g);
  // Both sides as they ship: the toggles named on both alike, every other at each commit's own default.
  commit_arms arms(m, store, ctx, v, named_toggles(f.toggles), mm.jobs);
  rep.variant = arms.name();
  pr_sides s{rep.base, rep.head, {}, {}};
  std::vector<gate::benchmark_decision> decisions = decide_benchmarks(m, f, mm, arms, s, rep.notes);
  if (s.base != s.head) rep.flips = default_flips(arms.resolved(s.base), arms.resolved(s.head));

  // The first experiment gets 60% of the budget when a confirmation may follow, the confirmation
  // what is left.
  const auto measuring_since = clock_type::now();
  const gate::gate_options options{f.no_confirm ? gate::confirm_mode::none : gate::confirm_mode::rerun, mm.seed};
  rep.result = gate::run_gate(std::move(decisions), options, [&](const gate::experiment_request& q) {
    const double share = q.attempt == 0 && !f.no_confirm ? 0.6 : 1.0;
    const auto deadline = measuring_since + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(f.budget_s * share));
    return measure_pr(q, m, mm, f, s, {s.base_arm, s.head_arm}, arms, store, ctx, deadline, g);
  });
  if (!rep.flips.empty() && rep.result.second && any_confirmed(rep))
    rep.attribution = attribute_flips(rep, m, mm, f, s, arms, store, ctx, g);
  record_alerts(store, rep);
  rep.exit_code = gate::policy_exit_code(rep.result, rep.policy);
  rep.wall_s = std::chrono::duration<double>(clock_type::now() - t0).count();
  const fs::path comment = f.comment.empty() ? m.state_dir() / "pr-comment.md" : fs::path(f.comment);
  write_comment(comment, gate::render(rep, report::format::markdown));
  rep.comment_file = comment.string();
  print_result(g, rep);
  if (!g.json && !g.quiet) fmt::print(stderr, "comment written to {}\n", comment.string());
  return rep.exit_code;
}

}  // namespace

static const registrar pr_command(47, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<pr_flags>();
  auto* cmd = app.add_subcommand("pr", "the pull-request gate: merge base vs head, changed programs timed, moves confirmed");
  cmd->add_option("--base", f->base, "the base branch; its merge base with the head is compared (default: origin/main, else main)");
  cmd->add_option("--head", f->head, "the head commit (default: HEAD)");
  cmd->add_option("--toggle,-t", f->toggles,
                  "build both sides with this toggle ID[=LEVEL] (repeatable; default: none — every toggle at each commit's own default)");
  cmd->add_option("--bench", f->benches, "only this benchmark (repeatable; default: all)");
  cmd->add_option("--budget-s", f->budget_s, "wall budget of the measurements in seconds (default 600)");
  cmd->add_option("--max-rounds", f->max_rounds, "adaptive: at most this many rounds per experiment (default 30)");
  cmd->add_option("--layouts", f->layouts, "K seeded links per side (with --rounds); the confirmation links afresh");
  cmd->add_flag("--counts", f->counts, "also count both sides' benchmarks once under Valgrind: a mechanism block per moved benchmark");
  cmd->add_flag("--no-confirm", f->no_confirm, "report moves without the confirming second experiment (to measure its false alerts)");
  cmd->add_option("--fail-on", f->fail_on, "exit 1 on: regression (default), any change, never");
  cmd->add_option("--comment", f->comment, "the markdown comment's file (default: .abtest/pr-comment.md beside the manifest)");
  f->measure.rounds = 0;
  add_measurement_options(cmd, f->measure, {.rounds_help = "fixed rounds per experiment instead of adaptive (default: adaptive)",
                                            .simulate_help = ""});
  cmd->callback([f, &g, &act] { act = [f, &g] { return run_pr_gate(*f, g); }; });
});

}  // namespace abtest::cli
