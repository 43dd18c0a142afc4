// The A/B behind `abtest history --confirm` (see history_confirm.hpp).
#include "harness/experiment/history_confirm.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "harness/core/analysis.hpp"
#include "harness/builder/builder.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/experiment/simulation.hpp"
#include "harness/experiment/worktree.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

// Each arm drawn from its own night's scenario: arm 0 (before) from `before`, arm 1 from `after`.
class two_nights_source : public sample_source {
 public:
  two_nights_source(const search::scenario& before, const search::scenario& after, const run_plan& plan)
      : before_(before, plan), after_(after, plan), plan_(plan) {}
  sample run(const arm_plan& arm, const benchmark_spec& bench, int round, bool warmup) override {
    return arm.key == plan_.arms[0].key ? before_.run(arm, bench, round, warmup) : after_.run(arm, bench, round, warmup);
  }

 private:
  simulated_source before_, after_;
  const run_plan& plan_;
};

struct night {
  db::experiment_record e;
  run_plan plan;
  const arm_plan* arm = nullptr;  // the arm running the variant
};

night load_night(db::results_store& store, const std::string& id, const std::string& variant) {
  auto e = store.find_experiment(id);
  if (!e) throw usage_error(fmt::format("experiment {} is gone from the database", id));
  night n{*e, run_plan::from_json(e->config), nullptr};
  for (const auto& a : n.plan.arms)
    if (a.key == variant) {
      n.arm = &a;
      break;
    }
  if (!n.arm) throw usage_error(fmt::format("experiment {} has no arm {}", id, variant));
  return n;
}

// The night's build of the variant as an arm: its folder when the binaries there are still the
// recorded ones, else the recorded commit rebuilt in its own worktree; nullopt with `why` otherwise.
std::optional<arm_plan> rebuild_arm(db::results_store& store, const experiment_context& ctx, const manifest& m, const night& n,
                                    const std::string& label, std::string& why) {
  if (!n.arm->build_id) {
    why = fmt::format("{} recorded no build of {}", n.e.id, n.arm->key);
    return std::nullopt;
  }
  const auto b = store.find_build(*n.arm->build_id);
  if (!b) {
    why = fmt::format("build #{} of {} is not in the database", *n.arm->build_id, n.e.id);
    return std::nullopt;
  }
  bool intact = !b->binaries.empty();
  for (const auto& bin : b->binaries) intact = intact && fs::exists(bin.path) && sha256_file(bin.path) == bin.sha256;
  arm_plan arm{n.arm->key + "@" + label, n.arm->levels, "", {}, n.arm->binaries_digest, b->id, {}, n.arm->env};
  if (intact) {
    arm.bin = b->build_dir;
    return arm;
  }
  if (!b->commit_sha || b->dirty) {
    why = fmt::format("the build folder of {} was rebuilt since {} and that build {} — it cannot be made again",
                      n.arm->key, n.e.id, b->commit_sha ? "had uncommitted changes" : "was made outside git");
    return std::nullopt;
  }
  const manifest at = manifest_at_commit(m, *b->commit_sha);
  builder_options bo;
  bo.build_root = build_root_for(m, *b->commit_sha);
  variant v;
  v.levels = n.arm->levels;
  const auto built = build_and_record(at, v, store, builder(at, bo), ctx);
  if (!built.outcome.ok) {
    why = fmt::format("commit {} no longer builds {}:\n{}", b->commit_sha->substr(0, 12), n.arm->key, built.outcome.log_tail);
    return std::nullopt;
  }
  const arm_plan rebuilt = arm_for(at, v, built);
  arm.bin = rebuilt.bin;
  arm.programs = rebuilt.programs;
  arm.binaries_digest = rebuilt.binaries_digest;
  arm.build_id = built.build_id;
  return arm;
}

void record(db::results_store& store, const confirm_request& r, const confirmation& c) {
  std::string note = c.verdict.empty() ? "A/B not run: " + c.note
                                       : fmt::format("A/B {}: {}", c.experiment.empty() ? "(nothing measured)" : c.experiment, c.verdict);
  if (c.ratio) note += fmt::format(", ratio {:.4f}", *c.ratio);
  if (c.ci_low && c.ci_high) note += fmt::format(" ({:.4f}–{:.4f})", *c.ci_low, *c.ci_high);
  for (const auto& cp : store.list_changepoints(r.variant, r.metric))
    if (cp.id == r.changepoint_id) store.set_changepoint_state(cp.id, cp.state, note);
}

// A complete A/B already run for this change point between these nights (history runs every night).
std::optional<confirmation> earlier(db::results_store& store, const confirm_request& r) {
  for (const auto& e : store.list_experiments(db::experiment_kind::run)) {
    if (e.status != db::experiment_status::complete || !e.config.contains("confirms")) continue;
    const auto& k = e.config["confirms"];
    if (k.value("changepoint", std::int64_t{0}) != r.changepoint_id || k.value("before", "") != r.before ||
        k.value("after", "") != r.after || k.value("metric", "") != r.metric)
      continue;
    for (const auto& v : store.list_verdicts(e.id))
      if (v.metric == r.metric)
        return confirmation{std::string(db::to_string(v.verdict)), e.id, v.ratio, v.ci_low, v.ci_high, v.note.value_or("")};
  }
  return std::nullopt;
}

}  // namespace

confirmation confirm_changepoint(db::results_store& store, const confirm_request& r, const experiment_context& ctx) {
  if (auto c = earlier(store, r)) return *c;
  confirmation c;
  const night before = load_night(store, r.before, r.variant), after = load_night(store, r.after, r.variant);
  run_plan plan;
  plan.kind = "run";
  plan.benchmarks = {benchmark_of(r.metric)};
  plan.params = after.plan.params;
  plan.rounds = r.rounds;
  plan.warmups = after.plan.warmups;
  plan.seed = after.plan.seed ^ 0x9e3779b97f4a7c15ULL;
  plan.margin = r.margin;
  plan.monitor_metrics = {r.metric};
  plan.metric_rules = after.plan.metric_rules;  // the night's own declarations

  std::optional<search::scenario> sb, sa;
  std::optional<manifest> m;
  if (!before.plan.simulate.empty() || !after.plan.simulate.empty()) {
    if (before.plan.simulate.empty() || after.plan.simulate.empty()) {
      c.note = "one night was simulated and the other was not — nothing to compare";
      record(store, r, c);
      return c;
    }
    for (const auto* path : {&before.plan.simulate, &after.plan.simulate})
      if (!fs::exists(*path)) {
        c.note = fmt::format("the scenario file {} is gone", *path);
        record(store, r, c);
        return c;
      }
    sb = load_simulate_flag(before.plan.simulate);
    sa = load_simulate_flag(after.plan.simulate);
    m = manifest_from_scenario(*sa, after.plan.simulate);
    plan.warmups = 0;
    plan.simulate = after.plan.simulate;
    // Distinct keys: the simulator seeds each sample from the arm's key, so the two arms draw
    // independent noise (one key on both sides would cancel the noise between them). Not the
    // nights' experiment ids (in the config below): they differ from one run to the next, and a
    // seeded night must confirm the same way every time (an A/A calls SLOWER 1 run in 40).
    plan.arms = {arm_plan{r.variant + "@before", before.arm->levels, "baseline", {}, {}, std::nullopt, {}, {}},
                 arm_plan{r.variant + "@after", after.arm->levels, "candidate", {}, {}, std::nullopt, {}, {}}};
  } else {
    const auto path = !r.manifest.empty() ? fs::path(r.manifest) : fs::path(after.e.manifest_path.value_or("abtest.json"));
    m = load_manifest(path);
    std::string why;
    auto a = rebuild_arm(store, ctx, *m, before, r.before, why);
    auto b = a ? rebuild_arm(store, ctx, *m, after, r.after, why) : std::nullopt;
    if (!a || !b) {
      c.note = why;
      record(store, r, c);
      return c;
    }
    if (!a->binaries_digest.empty() && a->binaries_digest == b->binaries_digest) {
      c.verdict = "same";
      c.note = "identical binaries on both nights: the change is not in the code (the machine, its load or its settings moved)";
      record(store, r, c);
      return c;
    }
    a->role = "baseline";
    b->role = "candidate";
    plan.arms = {*a, *b};
  }

  c.experiment = create_experiment(store, &*m, plan, r.command_line, current_machine(store),
                                   {{"confirms", {{"changepoint", r.changepoint_id}, {"variant", r.variant}, {"metric", r.metric},
                                                  {"before", r.before}, {"after", r.after}}},
                                    {"simulate_before", before.plan.simulate}});
  std::vector<sample> samples;
  execution done;
  if (sb) {
    two_nights_source source(*sb, *sa, plan);
    done = execute(store, *m, plan, c.experiment, source, samples, ctx);
  } else {
    process_source source(*m, plan);
    done = execute(store, *m, plan, c.experiment, source, samples, ctx);
  }
  const analysis_result& a = done.analysis;
  c.verdict = "inconclusive";
  for (const auto& row : a.rows)
    if (row.metric == r.metric) {
      c.verdict = stats::to_string(row.verdict);
      if (row.n > 0) c.ratio = row.primary.ratio();
      if (row.primary.has_ci) {
        c.ci_low = row.primary.ratio_low();
        c.ci_high = row.primary.ratio_high();
      }
      c.note = row.note;
    }
  record(store, r, c);
  return c;
}

}  // namespace abtest
