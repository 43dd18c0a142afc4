// The experiment-backed oracle: each comparison or matrix is an experiment run by the scheduler.
#include "harness/experiment/oracle.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "db/error.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/exec/duet.hpp"
#include "harness/experiment/arm_set_stats.hpp"
#include "harness/experiment/counts.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/simulation.hpp"
#include "harness/stats/confidence_sequence.hpp"
#include "harness/stats/paired_t.hpp"

namespace abtest {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// τ of the mixture SPRT: the smallest log effect of interest (design §7).
constexpr double adaptive_tau = 0.02;

}  // namespace

oracle_settings search_settings(const std::optional<search::scenario>& scenario, const measurement& mm,
                                const std::string& command_line) {
  oracle_settings s;
  s.params = mm.params;
  s.seed = mm.seed;
  if (scenario) {
    s.simulate = mm.simulate;
    s.scenario = &*scenario;
  }
  s.command_line = command_line;
  return s;
}

std::string benchmark_of(const std::string& metric) { return metric.substr(0, metric.find('.')); }

std::string choose_metric(const manifest& m, const std::string& flag, const search::scenario* s) {
  std::vector<std::string> totals;
  if (s) {
    for (const auto& [name, _] : s->metrics)
      if (name.size() > 8 && name.compare(name.size() - 8, 8, ".total_s") == 0) totals.push_back(name);
  } else {
    // Each format's row says which metric is its total: `total_s` (json, lines), `wall_s` (process),
    // none where metrics are named after the benchmarks (gbench, criterion, …).
    for (const auto& b : m.benchmarks) {
      if (const auto* row = exec::find_output_format(b.format); row != nullptr && !row->total_metric.empty())
        totals.push_back(fmt::format("{}.{}", b.name, row->total_metric));
    }
  }
  if (!flag.empty()) {
    const bool known = s ? s->metrics.count(flag) > 0 : m.find_benchmark(benchmark_of(flag)) != nullptr;
    if (!known) throw usage_error(fmt::format("--metric {}: no benchmark or scenario metric reports it — use <bench>.<metric>, "
                                              "e.g. proof.total_s", flag));
    return flag;
  }
  for (const auto& t : totals)
    if (t == "proof.total_s") return t;
  if (totals.size() == 1) return totals.front();
  throw usage_error("which metric? there is no proof.total_s and no single <bench>.total_s — pass --metric <bench>.<metric> "
                    "(a gbench benchmark's are <bench>.<benchmark name>_s; `abtest show` lists an experiment's metrics)");
}

experiment_oracle::experiment_oracle(db::results_store& store, const manifest& m, experiment_context ctx,
                                     oracle_settings settings, arm_provider provider)
    : store_(store), m_(m), ctx_(std::move(ctx)), s_(std::move(settings)), provider_(std::move(provider)) {
  machine_id_ = current_machine(store_);
}

namespace {

// A duet needs its two cores free (exec::duet_cores_busy): the searches build between experiments,
// so wait for the build's load to leave them, then give up with the reason.
void wait_for_duet_cores(const std::string& pin) {
  const exec::duet_cores cores = exec::choose_duet_cores(pin);
  std::string why;
  for (int attempt = 0; attempt < 10; ++attempt)
    if ((why = exec::duet_cores_busy(cores)).empty()) return;
  throw usage_error(why);
}

}  // namespace

void experiment_oracle::count_arms(const arm_set_result& r) {
  // Counts depend on the programs and the benchmark, not on the experiment: a variant a search
  // compares again is not run under Valgrind again (its row is copied, marked with where it came from).
  for (const auto& group : variant_groups(r.plan)) {
    const arm_plan& arm = r.plan.arms[static_cast<std::size_t>(group.front())];
    for (const benchmark_spec* bench : counted_benchmarks(m_, r.plan)) {
      const auto it = counted_.find({arm.binaries_digest, bench->name});
      if (it == counted_.end()) continue;
      db::counts_record copy = it->second;
      copy.spec["reused_from"] = copy.experiment_id;
      copy.experiment_id = r.experiment_id;
      copy.arm_idx = group.front();
      store_.record_counts(copy);
    }
  }
  for (auto& warning : measure_counts(store_, m_, r.plan, r.experiment_id, ctx_)) notes_.push_back(std::move(warning));
  for (const auto& c : store_.list_counts(r.experiment_id))
    if (c.counts && !c.spec.contains("reused_from"))
      counted_.emplace(std::pair{r.plan.arms[static_cast<std::size_t>(c.arm_idx)].binaries_digest, c.benchmark}, c);
}

void experiment_oracle::measure_missing(arm_set_result& r) {
  schedule_result sched;
  if (s_.scenario) {
    simulated_source source(*s_.scenario, r.plan);
    sched = measure(store_, m_, r.plan, r.experiment_id, source, r.samples, ctx_);
  } else {
    process_source source(m_, r.plan);
    sched = measure(store_, m_, r.plan, r.experiment_id, source, r.samples, ctx_);
  }
  r.interrupted = r.interrupted || sched.interrupted;
  r.analysis = analyze(r.plan, r.samples);
  if (s_.counts) add_count_verdicts(r.analysis, r.plan, store_.list_counts(r.experiment_id));
  fill_log_values(s_.metric, r);
}

arm_set_result experiment_oracle::begin_arms(std::vector<arm_plan> arms, int rounds, const std::string& kind,
                                             const nlohmann::json& extra_config) {
  arm_set_result r;
  for (std::size_t i = 0; i < arms.size(); ++i) arms[i].role = i == 0 ? "baseline" : "candidate";
  r.plan.kind = kind;
  r.plan.benchmarks = s_.benchmarks.empty() ? std::vector<std::string>{benchmark_of(s_.metric)} : s_.benchmarks;
  r.plan.params = s_.params;
  r.plan.rounds = rounds;
  r.plan.round_cap = extra_config.value("adaptive_cap", 0);  // an adaptive comparison's cap, for the round counter
  const bool timed = rounds > 0;  // 0: counted only (bisect's counts screen)
  // A matrix's added rounds follow its first ones at once: their binaries are warm.
  r.plan.warmups = timed && !extra_config.value("continues", false) ? s_.warmups : 0;
  r.plan.seed = s_.seed + static_cast<std::uint64_t>(experiments_++);  // the first is the seed asked for
  r.plan.simulate = s_.simulate;
  r.plan.pin = s_.pin;
  r.plan.metric_rules = m_.metric_rules;
  if (timed && s_.layouts > 0) {
    // Every experiment of a search draws a variant's layouts from the search's seed: the same K
    // links serve each comparison the variant is in (a fresh draw per experiment would relink each time).
    if (!relink_) throw std::logic_error("experiment_oracle: settings.layouts without a relinker");
    run_plan layout_plan = r.plan;
    layout_plan.seed = s_.seed;
    for (const auto& arm : arms)
      for (auto& layout : relink_(layout_plan, arm, s_.layouts)) r.plan.arms.push_back(std::move(layout));
    r.plan.layouts = s_.layouts;
  } else {
    r.plan.arms = std::move(arms);
  }
  if (timed && s_.duet && variant_groups(r.plan).size() == 2) {
    r.plan.duet = true;
    r.plan.rounds = duet_rounds(r.plan.rounds);  // blocks of four balance cores and start order (plan.hpp)
    if (!s_.scenario) wait_for_duet_cores(s_.pin);
  } else if (timed && s_.duet && !duet_noted_) {
    duet_noted_ = true;
    notes_.push_back("--duet pairs two variants: the experiments with more (the search's matrices) ran one invocation at a time");
  }
  nlohmann::json extra = extra_config;
  extra["metric"] = s_.metric;
  if (!s_.parent.empty()) extra["parent"] = s_.parent;
  // Ids carry a 16-bit random suffix per second; simulated searches create many per second.
  for (int attempt = 0;; ++attempt) {
    try {
      r.experiment_id = create_experiment(store_, &m_, r.plan, s_.command_line, machine_id_, extra);
      break;
    } catch (const db::error&) {
      if (attempt == 4) throw;
    }
  }
  if (s_.counts && !s_.scenario) count_arms(r);
  measure_missing(r);
  return r;
}

arm_set_result experiment_oracle::run_arms(std::vector<arm_plan> arms, int rounds, const std::string& kind,
                                           const nlohmann::json& extra_config) {
  arm_set_result r = begin_arms(std::move(arms), rounds, kind, extra_config);
  conclude(store_, r.experiment_id, r.analysis, r.interrupted);
  runs_ += r.runs;
  seconds_ += sample_seconds(r);
  return r;
}

std::vector<double> experiment_oracle::paired_differences(const arm_set_result& r) const {
  std::vector<double> d;
  for (std::size_t i = 0; i < r.log_values[0].size(); ++i) {
    const double b = r.log_values[0][i], v = r.log_values[1][i];
    if (std::isfinite(b) && std::isfinite(v)) d.push_back(v - b);
  }
  return d;
}

search::comparison experiment_oracle::compare_arms(const arm_plan& baseline, const arm_plan& candidate,
                                                   const search::comparison_request& request) {
  search::comparison c;
  oracle_step step{baseline.key, candidate.key, {}, "", ""};
  if (!baseline.binaries_digest.empty() && baseline.binaries_digest == candidate.binaries_digest) {
    // design §5: identical binaries are the same program — SAME by construction, nothing measured.
    c.verdict = stats::verdict::same;
    c.estimate.has_ci = true;
    c.estimate.ci_low = c.estimate.ci_high = 0.0;
    c.estimate.p_value = 1.0;
    step.result = c;
    step.note = "identical binaries: same by construction";
    record_step(std::move(step));
    return c;
  }
  arm_set_result r;
  stats::log_estimate e;
  if (s_.fixed_rounds > 0) {
    // Fixed n: a retry doubles the rounds of a fresh experiment (the first one's evidence is not reused).
    r = run_arms({baseline, candidate}, s_.fixed_rounds * (request.attempt + 1), s_.kind);
    require_metric(s_.metric, r);
    if (r.plan.layouts > 0 || r.plan.duet)
      e = analysed_estimate(r, s_.metric, 1.0 - request.alpha);  // layout means (Welch) or the duet's crossover
    else
      e = stats::one_sample_t(paired_differences(r), 1.0 - request.alpha);
  } else {
    if (s_.layouts > 0 || s_.duet) throw std::logic_error("experiment_oracle: --layouts and --duet take fixed rounds");
    // Adaptive: the always-valid sequence at the request's α, looked at after every round from
    // min_rounds on; stopping at the first decisive verdict keeps its error level (Johari et al. 2017).
    const int cap = request.attempt > 0 ? s_.retry_max_rounds : s_.max_rounds;
    // A confirmation after a matrix brings the matrix's variance (search::comparison_request): sound
    // from its own, lower minimum of rounds, at the scale of the effect it checks.
    const int start = std::min(request.min_rounds > 0 ? request.min_rounds : s_.min_rounds, cap);
    const double tau = request.tau > 0.0 ? request.tau : adaptive_tau;
    r = begin_arms({baseline, candidate}, start, s_.kind, {{"adaptive_cap", cap}});
    try {
      require_metric(s_.metric, r);
    } catch (const user_error&) {
      conclude(store_, r.experiment_id, r.analysis, r.interrupted);  // what it measured stays, concluded
      throw;
    }
    for (;;) {
      e = stats::msprt_interval(paired_differences(r), tau, request.alpha, request.known_variance);
      if (stats::decide(e, request.margin, metric_direction(m_, s_.metric)).value != stats::verdict::inconclusive ||
          search::settled_on_side(e, request.settle_side, request.margin) || r.plan.rounds >= cap || r.interrupted)
        break;  // interrupted: the search ends with what it has decided (interrupted())
      r.plan.rounds += 1;
      measure_missing(r);
    }
    conclude(store_, r.experiment_id, r.analysis, r.interrupted);
    runs_ += r.runs;
    seconds_ += sample_seconds(r);
  }
  c.estimate = e;
  c.paired = !(r.plan.layouts > 0 || r.plan.duet);
  c.verdict = stats::decide(e, request.margin, metric_direction(m_, s_.metric)).value;
  c.rounds = e.n;
  c.runs = r.runs;
  if (r.plan.layouts == 0) {
    const std::vector<double> seconds = arm_run_seconds(r);
    c.from_run_s = seconds.at(0);
    c.to_run_s = seconds.at(1);
  }
  interrupted_ = interrupted_ || r.interrupted;
  step.result = c;
  step.experiment_id = r.experiment_id;
  if (e.n == 0) step.note = "no paired rounds: the benchmark failed or the variant is INVALID — see `abtest show " +
                            r.experiment_id + "`";
  record_step(std::move(step));
  return c;
}

search::comparison experiment_oracle::compare(const search::levels& from, const search::levels& to,
                                              const search::comparison_request& request) {
  if (listener_.comparing) listener_.comparing(from, to);
  last_matrix_ = nullptr;
  const auto a = provider_(from);
  const auto b = provider_(to);
  if (a && b) return compare_arms(*a, *b, request);
  search::comparison c;  // INCONCLUSIVE without a CI: the search skips it
  oracle_step step{variant_key(from, m_), variant_key(to, m_), c, "", ""};
  step.note = fmt::format("skipped: {} does not build", !a ? step.from : step.to);
  record_step(std::move(step));
  return c;
}

search::matrix_result experiment_oracle::run_matrix(const std::vector<search::levels>& configs, int rounds) {
  if (listener_.matrix) listener_.matrix(configs.size(), rounds);
  search::matrix_result out;
  const int columns = s_.layouts > 0 ? s_.layouts : rounds;  // with layouts the replicates are the layouts
  out.log_values.assign(configs.size(), std::vector<double>(static_cast<std::size_t>(columns), nan));
  std::vector<arm_plan> arms;
  std::vector<std::size_t> index;  // arm → config
  nlohmann::json keys = nlohmann::json::array();
  for (std::size_t c = 0; c < configs.size(); ++c) {
    keys.push_back(variant_key(configs[c], m_));
    if (auto arm = provider_(configs[c])) {
      arms.push_back(std::move(*arm));
      index.push_back(c);
    }
  }
  if (arms.size() < 2) return out;
  nlohmann::json config{{"design_configs", keys}};
  if (keys == last_matrix_) config["continues"] = true;
  const arm_set_result r = run_arms(std::move(arms), rounds, s_.kind, config);
  last_matrix_ = keys;
  require_metric(s_.metric, r);
  if (r.plan.layouts > 0) {
    const auto means = layout_log_means(r);
    for (std::size_t a = 0; a < index.size(); ++a) out.log_values[index[a]] = means[a];
  } else {
    const std::vector<double> seconds = arm_run_seconds(r);
    out.run_s.assign(configs.size(), nan);
    for (std::size_t a = 0; a < index.size(); ++a) {
      out.log_values[index[a]] = r.log_values[a];
      out.run_s[index[a]] = seconds[a];
    }
  }
  interrupted_ = interrupted_ || r.interrupted;
  out.runs = r.runs;
  oracle_step step{r.plan.arms[0].key, fmt::format("matrix of {} configurations", configs.size()), {}, r.experiment_id,
                   fmt::format("{} of {} configurations built", index.size(), configs.size())};
  step.result.rounds = rounds;
  step.result.runs = r.runs;
  record_step(std::move(step));
  return out;
}

void experiment_oracle::record_step(oracle_step step) {
  if (!s_.parent.empty()) {
    db::bisect_step_record rec;
    rec.experiment_id = s_.parent;
    rec.step = static_cast<int>(steps_.size());
    rec.from_variant = step.from;
    rec.to_variant = step.to;
    const bool measured = step.result.estimate.n > 0 || step.note.rfind("identical", 0) == 0;
    if (measured)
      rec.verdict = db::parse<db::verdict_kind>(stats::to_string(step.result.verdict));
    rec.rounds = step.result.rounds;
    if (step.result.estimate.n > 0) rec.ratio = step.result.estimate.ratio();
    std::string note = step.experiment_id.empty() ? "" : "experiment " + step.experiment_id;
    if (!step.note.empty()) note += (note.empty() ? "" : "; ") + step.note;
    if (!note.empty()) rec.note = note;
    store_.insert_bisect_step(rec);
  }
  if (listener_.recorded) listener_.recorded(step);
  steps_.push_back(std::move(step));
}

}  // namespace abtest
