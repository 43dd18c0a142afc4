// `abtest compare`: re-analyse one stored experiment (paired), or the same variant across two
// experiments (unpaired: Welch on log values, since their rounds are not blocks of each other).
#include <fmt/format.h>

#include <iostream>
#include <set>

#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/report.hpp"
#include "harness/stats/descriptive.hpp"
#include "harness/stats/welch.hpp"

namespace abtest::cli {
namespace {

struct compare_flags {
  std::vector<std::string> experiments;
  std::string variant;
  double margin_pct = -1;
  bool fail_on_regression = false;
};

db::experiment_record need(db::results_store& store, const std::string& id) {
  auto e = store.find_experiment(id);
  if (!e) throw usage_error(fmt::format("no experiment {} — `abtest list` shows the recorded ones", id));
  return *e;
}

int one(db::results_store& store, const compare_flags& f, const global_options& g) {
  const auto e = need(store, f.experiments[0]);
  auto plan = run_plan::from_json(e.config);
  if (f.margin_pct >= 0) plan.margin = f.margin_pct / 100;
  auto samples = load_samples(store, e.id);
  const auto analysis = analyze(plan, samples);
  std::optional<reference_result> reference;
  // A simulated experiment's recorded path is its scenario file, which has no reference.
  if (plan.simulate.empty() && e.manifest_path && std::filesystem::exists(*e.manifest_path)) {
    const auto m = load_manifest(*e.manifest_path);
    reference = compare_to_reference(m, plan, samples);
  }
  int rounds = 0;
  for (const auto& s : samples)
    if (!s.warmup) rounds = std::max(rounds, s.round);
  report_input in{e.id, plan, analysis, reference ? &*reference : nullptr, rounds, false,
                  e.status != db::experiment_status::complete};
  if (g.json) std::cout << json_report(in).dump(2) << "\n";
  else if (!g.quiet) fmt::print("{}", terminal_report(in));
  return exit_code_for(analysis, f.fail_on_regression);
}

int two(db::results_store& store, const compare_flags& f, const global_options& g) {
  const auto a = need(store, f.experiments[0]);
  const auto b = need(store, f.experiments[1]);
  const auto plan_a = run_plan::from_json(a.config), plan_b = run_plan::from_json(b.config);
  const std::string key = f.variant.empty() ? plan_a.arms[0].key : f.variant;
  auto arm_of = [&](const run_plan& p, const std::string& id) {
    for (size_t i = 0; i < p.arms.size(); ++i)
      if (p.arms[i].key == key) return static_cast<int>(i);
    throw usage_error(fmt::format("experiment {} has no arm {} — pick one with --variant", id, key));
  };
  const int arm_a = arm_of(plan_a, a.id), arm_b = arm_of(plan_b, b.id);
  auto values = [](const std::vector<sample_row>& rows, int arm) {
    std::map<std::string, std::vector<double>> out;
    for (const auto& s : rows)
      if (!s.warmup && s.arm == arm && s.status == exec::sample_status::ok)
        for (const auto& [k, v] : s.metrics)
          if (v > 0 && !is_auxiliary_metric(k)) out[k].push_back(v);
    return out;
  };
  const auto va = values(load_samples(store, a.id), arm_a), vb = values(load_samples(store, b.id), arm_b);
  const double margin = f.margin_pct >= 0 ? f.margin_pct / 100 : plan_a.margin;
  nlohmann::json rows = nlohmann::json::array();
  if (!g.json && !g.quiet)
    fmt::print("{} in {} (before) vs {} (after), unpaired (Welch on log values)\n  {:<34} {:>12} {:>12} {:>8}  {:<19} {}\n", key, a.id,
               b.id, "metric", "before", "after", "ratio", "95% CI", "verdict");
  bool slower = false;
  for (const auto& [metric, xa] : va) {
    const auto it = vb.find(metric);
    if (it == vb.end()) continue;
    const auto est = stats::welch_log_ratio(it->second, xa);
    const auto v = stats::decide(est, margin, metric_direction(metric));
    slower |= v.value == stats::verdict::slower && !v.immaterial;
    rows.push_back({{"variant", key}, {"metric", metric}, {"n", est.n}, {"baseline_median", stats::median(xa)},
                    {"candidate_median", stats::median(it->second)}, {"ratio", est.ratio()},
                    {"ci_low", est.has_ci ? nlohmann::json(est.ratio_low()) : nlohmann::json()},
                    {"ci_high", est.has_ci ? nlohmann::json(est.ratio_high()) : nlohmann::json()},
                    {"p_value", est.p_value}, {"verdict", stats::to_string(v.value)}});
    if (!g.json && !g.quiet)
      fmt::print("  {:<34} {:>12} {:>12} {:>7.3f}×  {:<19} {}\n", metric, format_value(metric, stats::median(xa)),
                 format_value(metric, stats::median(it->second)), est.ratio(),
                 est.has_ci ? fmt::format("[{:.3f}, {:.3f}]", est.ratio_low(), est.ratio_high()) : "—",
                 stats::to_string(v.value));
  }
  if (g.json) std::cout << nlohmann::json({{"experiment", b.id}, {"baseline", a.id}, {"verdicts", rows}}).dump(2) << "\n";
  return f.fail_on_regression && slower ? static_cast<int>(exit_code::regression) : 0;
}

}  // namespace

static const registrar reg(30, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<compare_flags>();
  auto* cmd = app.add_subcommand("compare", "re-analyse stored samples: one experiment, or one variant across two");
  cmd->add_option("experiments", f->experiments, "EXPERIMENT [EXPERIMENT]")->required()->expected(1, 2);
  cmd->add_option("--variant", f->variant, "with two experiments: the variant to follow (default: the first's baseline)");
  cmd->add_option("--margin", f->margin_pct, "practical margin in percent (default: the experiment's)");
  cmd->add_flag("--fail-on-regression", f->fail_on_regression, "exit 1 when a metric is SLOWER");
  cmd->callback([f, &g, &act] {
    act = [f, &g] {
      auto store = open_store_read_only(db_path(g, nullptr));
      return f->experiments.size() == 1 ? one(store, *f, g) : two(store, *f, g);
    };
  });
});

}  // namespace abtest::cli
