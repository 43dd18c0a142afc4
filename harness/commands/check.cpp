// `abtest check`: is the checked-out tree slower than a good revision, both built as they ship (each
// with its own defaults, design §5)? For `git bisect run`: exit 0 good, 1 bad, 125 skip (design §9).
// The answer is rendered by gate/check_report.hpp.
#include <fmt/format.h>

#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/experiment/worktree.hpp"
#include "harness/gate/check_report.hpp"

namespace abtest::cli {
namespace {

struct check_flags {
  std::string against, metric;
  std::vector<std::string> toggles;
  measurement_flags measure{.rounds = 0};  // --rounds (0: adaptive), --margin, --param, --seed, --jobs
};

// The good revision: --against, else the newest `git bisect good`.
std::string good_revision(const check_flags& f, const manifest& m) {
  if (!f.against.empty()) return f.against;
  const auto good = bisect_good_commits(m);
  if (good.empty())
    throw usage_error("no revision to compare with — pass --against REV, or run me from `git bisect run` after `git bisect good REV`");
  return good.back();
}

// The good revision in its own worktree and build root, the checked-out tree where it is. Both as
// they ship: the toggles named at the same level, every other at each tree's own default (design §5).
struct check_sides {
  manifest at;  // the manifest at the good revision
  recorded_build good, here;
};

check_sides build_sides(const manifest& m, const gate::check_report& r, const variant& v, const std::set<std::string>& named,
                        int jobs, db::results_store& store, const experiment_context& ctx) {
  check_sides s{manifest_at_commit(m, r.sha), {}, {}};
  builder_options bo;
  bo.jobs = jobs;
  bo.build_root = build_root_for(m, r.sha);
  bo.pinned = named;
  s.good = build_and_record(s.at, v, store, builder(s.at, bo), ctx);
  if (!s.good.outcome.ok)
    throw user_error(exit_code::build_failed, fmt::format("the good revision {} does not build — last lines of {}:\n{}", r.against,
                                                          s.good.outcome.log_path.string(), s.good.outcome.log_tail));
  builder_options here_options;
  here_options.jobs = jobs;
  here_options.pinned = named;
  s.here = build_and_record(m, v, store, builder(m, here_options), ctx);
  return s;
}

// The checkout against the good revision; an inconclusive first comparison gets a second, longer one.
void compare_sides(gate::check_report& r, const check_sides& sides, const manifest& m, const variant& v, const oracle_settings& s,
                   double margin, db::results_store& store, const experiment_context& ctx) {
  experiment_oracle oracle(store, m, ctx, s, [](const search::levels&) { return std::nullopt; });
  arm_plan base = arm_for(sides.at, v, sides.good);
  base.key = fmt::format("{}@{}", r.variant, r.sha.substr(0, 12));
  arm_plan cand = arm_for(m, v, sides.here);
  cand.key = r.variant;
  search::comparison c = oracle.compare_arms(base, cand, {margin, 0.05, 0});
  if (c.verdict == stats::verdict::inconclusive) c = oracle.compare_arms(base, cand, {margin, 0.05, 1});
  r.verdict = stats::to_string(c.verdict);
  r.ratio = c.estimate.ratio();
  r.experiment = oracle.steps().back().experiment_id;
  r.exit_code = c.verdict == stats::verdict::slower         ? static_cast<int>(exit_code::regression)
                : c.verdict == stats::verdict::inconclusive ? static_cast<int>(exit_code::skip)
                                                            : 0;
}

oracle_settings settings_for(const std::string& metric, const measurement& mm, const manifest& m, const global_options& g) {
  oracle_settings s;
  s.kind = "check";
  s.metric = metric;
  s.fixed_rounds = mm.rounds;
  s.warmups = m.find_benchmark(benchmark_of(s.metric))->warmups;
  s.params = mm.params;
  s.seed = mm.seed;
  s.command_line = g.command_line;
  return s;
}

int check(const check_flags& f, const global_options& g) {
  const manifest m = load_manifest_for(g);
  gate::check_report r;
  r.against = good_revision(f, m);
  r.sha = resolve_commit(m, r.against);
  const variant v = variant_from_flags(f.toggles, m);
  const std::set<std::string> named = named_toggles(f.toggles);
  r.metric = choose_metric(m, f.metric, nullptr);
  const measurement mm = resolve_measurement(f.measure, m, rounds_rule::adaptive_when_zero);
  auto store = open_store(db_path(g, &m));
  const experiment_context ctx = context_for(g);
  const check_sides sides = build_sides(m, r, v, named, mm.jobs, store, ctx);
  r.variant = defaults_key(v, named, m);
  r.flips = default_flips(sides.good.outcome.resolved, sides.here.outcome.resolved);
  if (sides.here.outcome.ok) {
    compare_sides(r, sides, m, v, settings_for(r.metric, mm, m, g), mm.margin, store, ctx);
  } else {
    r.verdict = "unbuildable";
    r.exit_code = static_cast<int>(exit_code::skip);
  }
  print_result(g, r);
  return r.exit_code;
}

}  // namespace

static const registrar check_command(45, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<check_flags>();
  auto* cmd = app.add_subcommand("check", "for `git bisect run`: exit 0 if the checkout is not slower than REV, 1 if it is, 125 to skip");
  cmd->add_option("--against", f->against, "the good revision (default: the newest refs/bisect/good-*)");
  cmd->add_option("--metric", f->metric, "the metric compared (default: proof.total_s, else the only <bench>.total_s)");
  cmd->add_option("--toggle,-t", f->toggles, "give this toggle ID[=LEVEL] on both sides (default: none — each tree's own defaults)");
  // No --simulate: check compares two builds of real trees.
  add_measurement_options(cmd, f->measure, {.rounds_help = "fixed rounds (default: adaptive, 10–50)", .simulate_help = ""});
  cmd->callback([f, &g, &act] { act = [f, &g] { return check(*f, g); }; });
});

}  // namespace abtest::cli
