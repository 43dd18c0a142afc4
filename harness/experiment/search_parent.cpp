// A search's parent experiment and its overall verdict row (search_parent.hpp).
#include "harness/experiment/search_parent.hpp"

#include <chrono>

#include "harness/experiment/experiment.hpp"

namespace abtest {

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
  plan.metric_rules = m.metric_rules;
  nlohmann::json config = extra;
  config["metric"] = s.metric;
  config["role"] = "search";
  return create_experiment(store, &m, plan, s.command_line, current_machine(store), config);
}

db::verdict_record overall_record(const std::string& parent, const search::bisect_report& r, const std::string& metric,
                                  double margin, stats::better better) {
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
  v.immaterial = stats::decide(e, margin, better).immaterial;
  v.details["policy"] = {{"better", stats::to_string(better)}, {"margin", margin}};
  v.note = "the bisection's overall comparison; its steps are experiments of their own (bisect_step)";
  v.created_at = std::chrono::system_clock::now();
  return v;
}

}  // namespace abtest
