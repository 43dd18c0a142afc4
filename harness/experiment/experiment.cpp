// An experiment's lifecycle over the scheduler and the results store: create (the plan and its arms
// in one transaction), measure (the RMIT schedule, resumable), conclude, execute, and the exit code.
#include "harness/experiment/experiment.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>

#include "db/ids.hpp"
#include "harness/core/errors.hpp"
#include "harness/exec/host.hpp"
#include "harness/report/comparison_output.hpp"
#include "harness/experiment/counts.hpp"
#include "harness/experiment/progress.hpp"
#include "harness/experiment/stop_signals.hpp"

namespace abtest {

std::string create_experiment(db::results_store& store, const manifest* m, const run_plan& plan,
                              const std::string& command_line, std::int64_t machine_id,
                              const nlohmann::json& extra_config, const std::string& id) {
  db::experiment_record e;
  e.started_at = std::chrono::system_clock::now();
  e.kind = db::parse<db::experiment_kind>(plan.kind);
  e.id = id.empty() ? db::new_experiment_id(e.kind, e.started_at) : id;
  e.command_line = command_line;
  if (m) {
    e.manifest_path = m->path.string();
    e.project = m->project;
  }
  e.config = plan.to_json();
  for (const auto& [k, v] : extra_config.items()) e.config[k] = v;
  e.config["owner"] = {{"host", exec::collect_host_facts().hostname}, {"pid", ::getpid()}};
  e.seed = static_cast<std::int64_t>(plan.seed);
  e.status = db::experiment_status::running;
  e.machine_id = machine_id;
  for (int i = 0; i < static_cast<int>(plan.arms.size()); ++i) {
    db::arm_record a;
    a.idx = i;
    a.variant = plan.arms[i].key;
    a.levels = plan.arms[i].levels;
    a.build_id = plan.arms[i].build_id;
    // The plan's role where it has one: with --layouts the baseline is arms 0 … K−1, not arm 0 alone.
    a.role = plan.arms[i].role.empty() ? (i == 0 ? db::arm_role::baseline : db::arm_role::candidate)
                                       : db::parse<db::arm_role>(plan.arms[i].role);
    e.arms.push_back(std::move(a));
  }
  store.create_experiment(e);
  return e.id;
}

schedule_result measure(db::results_store& store, const manifest& m, const run_plan& plan, const std::string& id,
                        sample_source& source, std::vector<sample>& samples, const experiment_context& ctx) {
  const std::int64_t machine_id = current_machine(store);
  stop_signals signals;
  round_tracker rounds(ctx, plan, static_cast<int>(samples.size()));
  scheduler_hooks hooks;
  // Samples held per (round, warm-up), so that a round's last sample is known when it is recorded.
  const std::size_t per_round = plan.arms.size() * plan.benchmarks.size();
  std::map<std::pair<int, bool>, std::size_t> in_round;
  for (const auto& s : samples) ++in_round[{s.round, s.warmup}];
  bool round_ended = false;
  hooks.should_stop = [&] {
    if (stop_requested()) return true;
    return round_ended && ctx.stop_between_rounds && ctx.stop_between_rounds();
  };
  hooks.record = [&](sample& s) {
    round_ended = ++in_round[{s.round, s.warmup}] == per_round;
    s.experiment_id = id;
    s.machine_id = machine_id;
    const auto& arm = plan.arms[s.arm];
    s.build_id = arm.build_id;
    if (!arm.binaries_digest.empty()) s.binary_hash = arm.binaries_digest;
    if (const auto load = exec::read_load_average()) s.load_avg = load->one;
    // What the store cannot keep is dropped here, so that the sample kept in memory is the one stored.
    std::erase_if(s.metrics, [](const auto& metric) { return !std::isfinite(metric.second); });
    s.started_at = std::chrono::floor<std::chrono::milliseconds>(s.started_at);
    s.uuid = db::new_uuid();
    s.id = store.insert_sample(s);
    rounds.recorded(s);
  };
  const schedule_result result = run_schedule(m, plan, source, samples, hooks);
  ctx.report(progress::kind::idle, "");
  return result;
}

void conclude(db::results_store& store, const std::string& id, const analysis_result& analysis, bool interrupted) {
  std::vector<db::verdict_record> rows;
  for (const auto& r : analysis.rows) rows.push_back(report::to_record(r, id));
  store.replace_verdicts(id, rows);
  store.set_experiment_status(id, interrupted ? db::experiment_status::incomplete : db::experiment_status::complete,
                              std::chrono::system_clock::now());
}

execution execute(db::results_store& store, const manifest& m, const run_plan& plan, const std::string& id,
                  sample_source& source, std::vector<sample>& samples, const experiment_context& ctx) {
  execution e;
  e.schedule = measure(store, m, plan, id, source, samples, ctx);
  e.analysis = analyze(plan, samples);
  e.counts = store.list_counts(id);
  add_count_verdicts(e.analysis, plan, e.counts);
  conclude(store, id, e.analysis, e.schedule.interrupted);
  return e;
}

int exit_code_for(const analysis_result& a, bool fail_on_regression) {
  if (a.any_failed() || a.any_invalid()) return static_cast<int>(exit_code::bench_failed);
  if (fail_on_regression && a.any_slower()) return static_cast<int>(exit_code::regression);
  return 0;
}

}  // namespace abtest
