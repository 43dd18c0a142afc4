// The runner's work: plan, host check, results store, the schedule through abtest's executor
// (experiment.hpp's execute: the same scheduler, process source, parsers, rusage and analysis).
#include "harness/bundle/runner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <ranges>

#include "db/error.hpp"
#include "harness/bundle/bundle_plan.hpp"
#include "harness/bundle/host_check.hpp"
#include "harness/report/comparison_output.hpp"
#include "harness/experiment/experiment.hpp"

namespace abtest::bundle {
namespace fs = std::filesystem;

namespace {

runner_error output_error(const fs::path& out, const std::string& what) {
  const fs::path db = out / "results.db";
  std::error_code ec;
  return runner_error(runner_exit::output,
                      fmt::format("cannot write {}: {} — free space or give --out a folder you can write{}", db.string(), what,
                                  fs::exists(db, ec) ? fmt::format("; what was measured stays in {} (the same --out resumes)", db.string())
                                                     : std::string{}));
}

nlohmann::json gpu_details(const cuda_probe& cuda) {
  if (cuda.devices == 0) return nlohmann::json::object();
  return {{"gpu_name", cuda.gpu_name}, {"gpu_devices", cuda.devices}, {"gpu_driver", cuda.driver_version},
          {"cuda_driver_api", cuda.driver_api}};
}

// Stops after the round whose end, plus one more round like it, would pass the budget.
class budget_clock {
 public:
  explicit budget_clock(double budget_s) : budget_s_(budget_s) {}
  bool stop_now() {
    const auto now = std::chrono::steady_clock::now();
    const double round_s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return std::chrono::duration<double>(now - start_).count() + round_s > budget_s_;
  }

 private:
  double budget_s_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

int measure_bundle(const runner_options& o, const bundle_plan& bp, const host_check& check) {
  db::results_store store{o.out / "results.db"};
  const std::int64_t machine = current_machine(store, gpu_details(check.cuda));
  const manifest m = bp.as_manifest(o.dir);
  const run_plan plan = bp.resolved(o.dir);
  const std::string& id = bp.experiment_id;
  const auto existing = store.find_experiment(id);
  if (!existing) {
    nlohmann::json config = bp.config;
    config["bundle"] = {{"plan_schema", bp.schema}, {"made", bp.created_at}, {"made_by", bp.command_line}};
    create_experiment(store, nullptr, plan, bp.command_line, machine, config, id);
  } else if (existing->status == db::experiment_status::complete) {
    if (!o.quiet) fmt::print(stderr, "experiment {} is complete in {} — nothing to run; `abtest import {}` brings it back\n", id,
                             o.out.string(), o.out.string());
  } else {
    store.set_experiment_status(id, db::experiment_status::running);
  }
  std::vector<sample> samples = store.list_samples(id);
  if (!o.quiet && !samples.empty() && existing && existing->status != db::experiment_status::complete)
    fmt::print(stderr, "resuming {}: {} samples recorded\n", id, samples.size());
  else if (!o.quiet && !existing)
    fmt::print(stderr, "experiment {}: {} arms × {} benchmark(s), {} warm-up + {} rounds, seed {}\n", id, plan.arms.size(),
               plan.benchmarks.size(), plan.warmups, plan.rounds, plan.seed);

  experiment_context ctx;
  ctx.on_progress = [&](const progress& p) {
    if (!o.quiet && p.milestone && p.what == progress::kind::round) fmt::print(stderr, "{}\n", p.text);
  };
  std::optional<budget_clock> budget;
  if (o.budget_s) budget.emplace(*o.budget_s);
  if (budget) ctx.stop_between_rounds = [&] { return budget->stop_now(); };
  process_source source(m, plan);
  const execution e = execute(store, m, plan, id, source, samples, ctx);

  const int rounds_done = rounds_recorded(samples);
  report::comparison_result in{id, plan, e.analysis, nullptr, rounds_done, e.schedule.stopped_early, e.schedule.interrupted};
  if (!o.quiet) fmt::print("{}", report::terminal_report(in));
  if (e.schedule.interrupted) {
    fmt::print(stderr, "partial: {} of {} rounds measured into {} — run again with the same --out to resume\n", rounds_done,
               plan.rounds, (o.out / "results.db").string());
    return static_cast<int>(runner_exit::partial);
  }
  fmt::print(stderr, "complete: {} rounds in {} — bring it back with `abtest import {}`\n", rounds_done,
             (o.out / "results.db").string(), o.out.string());
  return exit_code_for(e.analysis, false);
}

}  // namespace

int run_bundle(const runner_options& options) {
  runner_options o = options;
  if (o.out.empty()) o.out = o.dir / "out";
  bundle_plan bp;
  try {
    bp = read_plan(o.dir / "plan.json");
  } catch (const plan_error& e) {
    throw runner_error(runner_exit::usage, e.what());
  }
  const host_check check = check_host(bp, o.dir);
  for (const auto& line : check.passed) fmt::print(stderr, "check: {}\n", line);
  if (!check.ok()) throw runner_error(runner_exit::refused, fmt::format("{}", fmt::join(check.problems, "\nerror: ")));
  if (o.check_only) {
    fmt::print(stderr, "check: ok — this host can run experiment {} ({} arms: {})\n", bp.experiment_id, bp.plan.arms.size(),
               fmt::join(bp.plan.arms | std::views::transform([](const arm_plan& a) { return a.key; }), ", "));
    return 0;
  }
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) throw output_error(o.out, ec.message());
  if (::access(o.out.c_str(), W_OK) != 0) throw output_error(o.out, "the folder is not writable");
  try {
    return measure_bundle(o, bp, check);
  } catch (const db::error& e) {
    const int code = e.primary_code();
    if (code == SQLITE_FULL || code == SQLITE_IOERR || code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM)
      throw output_error(o.out, e.what());
    throw;
  }
}

}  // namespace abtest::bundle
