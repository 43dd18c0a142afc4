// `abtest check`: is the checked-out tree slower than a good revision, both built as they ship (each
// with its own defaults, design §5)? For `git bisect run`: exit 0 good, 1 bad, 125 skip (design §9).
#include <fmt/format.h>

#include <iostream>

#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/experiment/worktree.hpp"
#include "harness/gate/attribution.hpp"

namespace abtest::cli {
namespace {

struct check_flags {
  std::string against, metric;
  std::vector<std::string> toggles;
  measurement_flags measure{.rounds = 0};  // --rounds (0: adaptive), --margin, --param, --seed, --jobs
};

int check(const check_flags& f, const global_options& g) {
  const manifest m = load_manifest_for(g);
  std::string against = f.against;
  if (against.empty()) {
    const auto good = bisect_good_commits(m);
    if (good.empty())
      throw usage_error("no revision to compare with — pass --against REV, or run me from `git bisect run` after `git bisect good REV`");
    against = good.back();
  }
  const std::string sha = resolve_commit(m, against);
  const variant v = variant_from_flags(f.toggles, m);
  const std::set<std::string> named = named_toggles(f.toggles);
  oracle_settings s;
  s.kind = "check";
  s.metric = choose_metric(m, f.metric, nullptr);
  const measurement mm = resolve_measurement(f.measure, m, rounds_rule::adaptive_when_zero);
  s.fixed_rounds = mm.rounds;
  s.warmups = m.find_benchmark(benchmark_of(s.metric))->warmups;
  s.params = mm.params;
  s.seed = mm.seed;
  s.command_line = g.command_line;
  auto store = open_store(db_path(g, &m));

  // The good revision in its own worktree and build root; the checked-out tree where it is. Both as
  // they ship: the toggles named at the same level, every other at each tree's own default (design §5).
  const manifest at = manifest_at_commit(m, sha);
  builder_options bo;
  bo.jobs = mm.jobs;
  bo.build_root = build_root_for(m, sha);
  bo.pinned = named;
  const experiment_context ctx = context_for(g);
  const auto good = build_and_record(at, v, store, builder(at, bo), ctx);
  if (!good.outcome.ok)
    throw user_error(exit_code::build_failed, fmt::format("the good revision {} does not build — last lines of {}:\n{}", against,
                                                          good.outcome.log_path.string(), good.outcome.log_tail));
  builder_options here_options;
  here_options.jobs = mm.jobs;
  here_options.pinned = named;
  const auto here = build_and_record(m, v, store, builder(m, here_options), ctx);
  const std::string name = defaults_key(v, named, m);
  const auto flips = default_flips(good.outcome.resolved, here.outcome.resolved);
  nlohmann::json out = {{"against", sha}, {"metric", s.metric}, {"variant", name}, {"defaults_changed", gate::to_json(flips)}};
  int code = 0;
  if (!here.outcome.ok) {
    out["verdict"] = "unbuildable";
    code = static_cast<int>(exit_code::skip);
  } else {
    experiment_oracle oracle(store, m, ctx, s, [](const search::levels&) { return std::nullopt; });
    arm_plan base = arm_for(at, v, good);
    base.key = fmt::format("{}@{}", name, sha.substr(0, 12));
    arm_plan cand = arm_for(m, v, here);
    cand.key = name;
    const double margin = mm.margin;
    search::comparison c = oracle.compare_arms(base, cand, {margin, 0.05, 0});
    if (c.verdict == stats::verdict::inconclusive) c = oracle.compare_arms(base, cand, {margin, 0.05, 1});
    out["verdict"] = stats::to_string(c.verdict);
    out["ratio"] = c.estimate.ratio();
    out["experiment"] = oracle.steps().back().experiment_id;
    code = c.verdict == stats::verdict::slower         ? static_cast<int>(exit_code::regression)
           : c.verdict == stats::verdict::inconclusive ? static_cast<int>(exit_code::skip)
                                                       : 0;
  }
  out["exit"] = code;
  if (g.json) std::cout << out.dump(2) << "\n";
  else if (!g.quiet) {
    fmt::print("{} vs {} on {}: {} → exit {} ({})\n", name, against, s.metric, out["verdict"].get<std::string>(), code,
               code == 0 ? "good" : code == 1 ? "bad" : "skip");
    for (const auto& flip : flips) fmt::print("  {} since {}\n", to_text(flip), against);
  }
  return code;
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
