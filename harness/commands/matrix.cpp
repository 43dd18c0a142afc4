// `abtest matrix`: every configuration of a design (full 2^k, resolution-V half fraction, one at a
// time) as arms of one experiment in RMIT rounds; verdicts vs base and factorial effects (DESIGN §7).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <iostream>
#include <random>
#include <set>

#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/scheduler.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/oracle.hpp"
#include "harness/experiment/report.hpp"
#include "harness/experiment/simulation.hpp"
#include "harness/search/design.hpp"
#include "harness/search/factorial_search.hpp"

namespace abtest::cli {
namespace {

struct matrix_flags {
  std::string design = "full", simulate, shard;
  std::vector<std::string> toggles, metrics;
  int rounds = 6;
  bool nightly = false;
  double margin_pct = 1.0;
  std::optional<std::uint64_t> seed;
  int jobs = 0;
};

// "I/N" with 0 ≤ I < N.
std::pair<int, int> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  try {
    if (slash != std::string::npos) {
      const int i = std::stoi(text.substr(0, slash)), n = std::stoi(text.substr(slash + 1));
      if (n >= 1 && i >= 0 && i < n) return {i, n};
    }
  } catch (const std::exception&) {
  }
  throw usage_error(fmt::format("--shard {}: expected I/N with 0 ≤ I < N, e.g. --shard 0/4 (Slurm: $SLURM_ARRAY_TASK_ID/4)", text));
}

std::string term_name(const std::vector<search::factor>& factors, const std::vector<int>& members) {
  std::vector<std::string> names;
  for (int j : members) names.push_back(factors[static_cast<std::size_t>(j)].name);
  return fmt::format("{}", fmt::join(names, "*"));
}

struct metric_effects {
  nlohmann::json json;
  std::string table;
  std::vector<db::effect_record> records;
};

// Effects and attribution of one metric over the measured matrix (log values per config and round).
metric_effects factorial_effects(const std::string& id, const std::string& metric, const search::design& d,
                                 const std::vector<search::factor>& factors, const std::vector<std::string>& keys,
                                 const std::vector<std::vector<double>>& y, double margin) {
  metric_effects out;
  const search::factorial_outcome f = search::attribute(d, y, 0.05, margin);
  std::set<std::vector<int>> culprits;
  for (const auto& c : f.culprits) culprits.insert(c.factors);
  out.json = {{"metric", metric}, {"sigma", f.screen.sigma}, {"rounds", f.screen.rounds}, {"configs", f.screen.configs}};
  out.table += fmt::format("\n{} — effects on log time, 0/1 coding (ratio = exp γ), {} configs × {} rounds, σ̂ {:.4f}\n", metric,
                           f.screen.configs, f.screen.rounds, f.screen.sigma);
  out.table += fmt::format("  {:<22} {:>8} {:>19} {:>9}  {}\n", "term", "ratio", "95% CI", "p (Holm)", "culprit");
  for (const auto& e : f.screen.attribution) {
    const std::string term = term_name(factors, e.factors);
    const bool culprit = culprits.count(e.factors) > 0;
    out.records.push_back({id, metric, term, e.estimate, e.se, e.ci_low, e.ci_high, e.p_value, e.p_adjusted});
    out.json["effects"].push_back({{"term", term}, {"effect", e.estimate}, {"ratio", std::exp(e.estimate)}, {"se", e.se},
                                   {"ci_low", e.ci_low}, {"ci_high", e.ci_high}, {"p_value", e.p_value},
                                   {"p_adjusted", e.p_adjusted}, {"culprit", culprit}});
    out.table += fmt::format("  {:<22} {:>8.4f} {:>8.4f}–{:<10.4f} {:>9.2g}  {}\n", term, std::exp(e.estimate), std::exp(e.ci_low),
                             std::exp(e.ci_high), e.p_adjusted, culprit ? "yes" : "");
  }
  for (const auto& e : f.screen.effects)
    out.json["screen"].push_back({{"term", term_name(factors, e.factors)}, {"effect", e.estimate}, {"se", e.se},
                                  {"p_adjusted", e.p_adjusted}});
  // Per variant: what the model attributes (Σ of its active terms) beside the measured mean.
  out.table += fmt::format("  {:<22} {:>8} {:>9}  {}\n", "variant", "measured", "model", "attributed to");
  for (std::size_t c = 0; c < d.runs.size(); ++c) {
    double sum = 0;
    int n = 0;
    for (std::size_t r = 0; r < y[c].size(); ++r)
      if (std::isfinite(y[c][r]) && std::isfinite(y[0][r])) sum += y[c][r] - y[0][r], ++n;
    const double predicted = search::predict(f.screen.attribution, d.runs[c]);
    std::vector<std::string> terms;
    for (const auto& e : f.screen.attribution) {
      bool active = true;
      for (int j : e.factors) active = active && d.runs[c][static_cast<std::size_t>(j)] == 1;
      if (active && culprits.count(e.factors)) terms.push_back(term_name(factors, e.factors));
    }
    nlohmann::json row = {{"variant", keys[c]}, {"model_ratio", std::exp(predicted)}, {"culprits", terms}};
    if (n > 0) row["measured_ratio"] = std::exp(sum / n);
    out.json["attribution"].push_back(row);
    out.table += fmt::format("  {:<22} {:>8} {:>9.4f}  {}\n", keys[c], n > 0 ? fmt::format("{:.4f}", std::exp(sum / n)) : "—",
                             std::exp(predicted), terms.empty() ? "-" : fmt::format("{}", fmt::join(terms, ", ")));
  }
  return out;
}

int matrix(const matrix_flags& f, const global_options& g) {
  const std::optional<search::scenario> scenario = load_simulate_flag(f.simulate);
  const manifest m = scenario ? manifest_from_scenario(*scenario, f.simulate) : load_manifest_for(g);
  if (f.rounds < 2) throw usage_error("--rounds must be at least 2: effects need a residual across rounds");
  const auto [shard, shards] = f.shard.empty() ? std::pair{0, 1} : parse_shard(f.shard);

  // The factors: the chosen toggles (each at its `on` level or the level given), else every toggle
  // that can change something on this host.
  std::vector<std::string> notes;
  variant high = f.toggles.empty() ? parse_variant_spec("all", m) : variant_from_flags(f.toggles, m);
  if (f.toggles.empty())
    for (const auto& id : inert_toggles(m, high)) {
      high.levels.erase(id);
      notes.push_back(fmt::format("{} is inert on this host — left out of the design (name it with --toggle to include it)", id));
    }
  const auto specs = search_toggles(m);
  const auto factors = search::differing_factors(specs, {}, high.levels);
  if (factors.empty()) throw usage_error("no toggles to vary — give --toggle ID (repeatable)");
  search::design d;
  try {
    d = search::make_design(f.design, static_cast<int>(factors.size()));
  } catch (const std::invalid_argument& e) {
    throw usage_error(fmt::format("--design {} with {} toggles: {} — try --design full|half|oat or fewer toggles", f.design,
                                  factors.size(), e.what()));
  }
  std::vector<std::string> keys;
  for (const auto& run : d.runs) keys.push_back(variant_key(search::apply({}, factors, run), m.toggles));

  oracle_settings s;
  s.kind = f.nightly ? "nightly" : "matrix";
  s.metric = f.metrics.empty() ? m.benchmarks.front().name + ".total_s" : f.metrics.front();
  for (const auto& b : m.benchmarks) s.benchmarks.push_back(b.name);
  s.warmups = scenario ? 0 : m.benchmarks.front().warmups;
  s.params = m.params;
  s.seed = f.seed ? *f.seed : std::random_device{}();
  if (scenario) {
    s.simulate = std::filesystem::absolute(f.simulate).string();
    s.scenario = &*scenario;
  }
  s.command_line = g.command_line;
  auto store = open_store(db_path(g, &m));
  builder_options bo;
  bo.jobs = f.jobs;
  bo.verbose = g.verbose > 0;
  variant_arms arms(m, store, g, bo, scenario.has_value());

  // This shard's configurations (index % N == I), with the all-off one always first: every arm is
  // paired with it within rounds, which also ties the shards of one design together.
  std::vector<std::size_t> chosen{0};
  for (std::size_t c = 1; c < d.runs.size(); ++c)
    if (static_cast<int>(c % static_cast<std::size_t>(shards)) == shard) chosen.push_back(c);
  std::vector<arm_plan> plan_arms;
  std::vector<std::size_t> arm_config;
  nlohmann::json skipped = nlohmann::json::array();
  for (std::size_t c : chosen) {
    const auto arm = arms(search::apply({}, factors, d.runs[c]));
    if (!arm) {
      if (c == 0)
        throw user_error(exit_code::build_failed, fmt::format("the build of base failed — every arm is compared with it; last lines:\n{}",
                                                              arms.failure("base")));
      skipped.push_back({{"variant", keys[c]}, {"reason", "build failed"}, {"log_tail", arms.failure(keys[c])}});
      notes.push_back(fmt::format("{} does not build — skipped", keys[c]));
      continue;
    }
    plan_arms.push_back(*arm);
    arm_config.push_back(c);
  }
  if (plan_arms.size() < 2) throw user_error(exit_code::build_failed, "fewer than two configurations built — nothing to compare");
  const nlohmann::json design_json = {{"kind", d.kind}, {"k", d.k}, {"generators", d.generators}, {"runs", d.runs},
                                      {"configs", keys}, {"factors", [&] {
                                         std::vector<std::string> n;
                                         for (const auto& x : factors) n.push_back(x.name);
                                         return n;
                                       }()}};
  experiment_oracle oracle(store, m, g, s, std::ref(arms));
  if (!g.quiet && !g.json)
    fmt::print(stderr, "matrix: {} design, {} of {} configurations{}, {} rounds\n", f.design, plan_arms.size(), d.runs.size(),
               shards > 1 ? fmt::format(" (shard {}/{})", shard, shards) : "", f.rounds);
  const arm_set_result r = oracle.run_arms(plan_arms, f.rounds, s.kind,
                                           {{"design", design_json}, {"shard", {{"index", shard}, {"count", shards}}},
                                            {"skipped", skipped}});
  const analysis_result analysis = analyze(r.plan, r.samples);

  // Factorial effects per key metric: the per-config, per-round log values of the whole design
  // (configurations of other shards or failed builds are missing: NaN).
  const auto metrics = f.metrics.empty() ? default_monitor_metrics(r.plan, r.samples) : f.metrics;
  std::vector<db::effect_record> records;
  nlohmann::json effects = nlohmann::json::array();
  std::string tables;
  for (const auto& metric : metrics) {
    std::vector<std::vector<double>> y(d.runs.size(), std::vector<double>(static_cast<std::size_t>(f.rounds), NAN));
    for (const auto& sr : r.samples) {
      if (sr.warmup || sr.status != exec::sample_status::ok || sr.round < 1 || sr.round > f.rounds) continue;
      if (!analysis.arms[static_cast<std::size_t>(sr.arm)].invalid_reason.empty()) continue;
      const auto it = sr.metrics.find(metric);
      if (it != sr.metrics.end() && it->second > 0)
        y[arm_config[static_cast<std::size_t>(sr.arm)]][static_cast<std::size_t>(sr.round - 1)] = std::log(it->second);
    }
    try {
      auto e = factorial_effects(r.experiment_id, metric, d, factors, keys, y, f.margin_pct / 100.0);
      effects.push_back(e.json);
      tables += e.table;
      records.insert(records.end(), e.records.begin(), e.records.end());
    } catch (const std::invalid_argument& e) {
      notes.push_back(fmt::format("{}: no factorial effects — {} (a shard or failed builds leave the design incomplete; "
                                  "merge the shards' databases with `abtest db merge` and analyse them together)",
                                  metric, e.what()));
    }
  }
  store.replace_effects(r.experiment_id, records);

  int rounds_done = 0;
  for (const auto& sr : r.samples)
    if (!sr.warmup) rounds_done = std::max(rounds_done, sr.round);
  report_input in{r.experiment_id, r.plan, analysis, nullptr, rounds_done, false, false};
  if (g.json) {
    auto j = json_report(in);
    j["kind"] = s.kind;
    j["design"] = design_json;
    j["shard"] = {{"index", shard}, {"count", shards}};
    j["skipped"] = skipped;
    j["effects"] = effects;
    j["runs"] = r.runs;
    j["notes"] = notes;
    std::cout << j.dump(2) << "\n";
  } else if (!g.quiet) {
    for (const auto& n : notes) fmt::print("note: {}\n", n);
    fmt::print("{}{}\n", terminal_report(in), tables);
  }
  return exit_code_for(analysis, false);
}

}  // namespace

static const registrar reg(35, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<matrix_flags>();
  auto* cmd = app.add_subcommand("matrix", "run a factorial design of toggles in RMIT rounds; effects and attribution");
  cmd->add_option("--design", f->design, "full (2^k), half (resolution ≥ V fraction) or oat (one at a time); default full")
      ->check(CLI::IsMember({"full", "half", "oat"}));
  cmd->add_option("--rounds,-n", f->rounds, "interleaved rounds (default 6)");
  cmd->add_option("--toggle,-t", f->toggles, "a factor, ID or ID=LEVEL (repeatable; default: every toggle not inert here)");
  cmd->add_option("--metric", f->metrics, "metrics to attribute (repeatable; default: each benchmark's total)");
  cmd->add_option("--margin", f->margin_pct, "practical margin in percent for culprits (default 1)");
  cmd->add_option("--simulate", f->simulate, "draw samples from a scenario file instead of building and running (DESIGN §12)");
  cmd->add_flag("--nightly", f->nightly, "record the experiment as the nightly matrix");
  cmd->add_option("--shard", f->shard, "I/N: run only the configurations with index % N == I (plus base), e.g. for a job array");
  cmd->add_option("--seed", f->seed, "seed of the round order (default: random, recorded)");
  cmd->add_option("--jobs,-j", f->jobs, "parallel build jobs");
  cmd->callback([f, &g, &act] { act = [f, &g] { return matrix(*f, g); }; });
});

}  // namespace abtest::cli
