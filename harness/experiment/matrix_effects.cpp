// Effects of a recorded matrix design: ln values from stored samples, the table, `matrix --analyze`.
#include "harness/experiment/matrix_effects.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "harness/core/errors.hpp"
#include "harness/core/scheduler.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/experiment.hpp"

namespace abtest {
namespace {

std::string term_name(const std::vector<std::string>& factors, const std::vector<int>& members) {
  std::vector<std::string> names;
  for (int j : members) names.push_back(factors.at(static_cast<std::size_t>(j)));
  return fmt::format("{}", fmt::join(names, "*"));
}

std::string group_of(const db::experiment_record& e) { return e.config.value("group", std::string()); }

bool is_matrix(const db::experiment_record& e) {
  return (e.kind == db::experiment_kind::matrix || e.kind == db::experiment_kind::nightly) && e.config.contains("design");
}

// The experiments named, or the members of a group, or the newest matrix/nightly one and its group.
std::vector<db::experiment_record> members(db::results_store& store, const std::vector<std::string>& ids, std::string group) {
  std::vector<db::experiment_record> out;
  if (!ids.empty()) {
    for (const auto& id : ids) {
      auto e = store.find_experiment(id);
      if (!e) throw usage_error(fmt::format("--experiment {}: no such experiment — `abtest list` shows the recorded ones", id));
      if (!is_matrix(*e)) throw usage_error(fmt::format("--experiment {}: not a matrix experiment (no design recorded)", id));
      out.push_back(std::move(*e));
    }
    return out;
  }
  const auto all = store.list_experiments();  // newest first
  if (group.empty()) {
    const auto newest = std::find_if(all.begin(), all.end(), is_matrix);
    if (newest == all.end()) throw usage_error("no matrix experiment in the database — run `abtest matrix` first");
    group = group_of(*newest);
    if (group.empty()) return {*newest};
  }
  for (const auto& e : all)
    if (is_matrix(e) && group_of(e) == group) out.push_back(e);
  if (out.empty()) throw usage_error(fmt::format("--group {}: no matrix experiment records this group", group));
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace

nlohmann::json design_to_json(const search::design& d, const std::vector<std::string>& keys,
                              const std::vector<std::string>& factors) {
  return {{"kind", d.kind}, {"k", d.k}, {"generators", d.generators}, {"runs", d.runs}, {"configs", keys}, {"factors", factors}};
}

recorded_design design_from_json(const nlohmann::json& j) {
  recorded_design r;
  r.d.kind = j.at("kind").get<std::string>();
  r.d.k = j.at("k").get<int>();
  r.d.generators = j.at("generators").get<std::vector<std::string>>();
  r.d.runs = j.at("runs").get<std::vector<std::vector<int>>>();
  r.keys = j.at("configs").get<std::vector<std::string>>();
  r.factors = j.at("factors").get<std::vector<std::string>>();
  r.json = j;
  return r;
}

recorded_design make_recorded_design(const manifest& m, const search::design& d, const std::vector<search::factor>& factors) {
  std::vector<std::string> keys, names;
  for (const auto& run : d.runs) keys.push_back(variant_key(search::apply({}, factors, run), m));
  for (const auto& x : factors) names.push_back(x.name);
  return design_from_json(design_to_json(d, keys, names));
}

search::shard_values design_values(const recorded_design& design, const run_plan& plan, const std::vector<sample>& samples,
                                   const analysis_result& health, const std::string& metric) {
  // A cell per configuration and replicate: the round without layouts; with --layouts the layout,
  // whose value is its mean over the rounds (layouts are the replicates of a configuration).
  const bool layouts = plan.layouts > 0;
  const std::size_t columns = static_cast<std::size_t>(layouts ? plan.layouts : plan.rounds);
  search::shard_values out;
  std::map<std::string, std::size_t> row_of_key;
  std::map<int, std::size_t> row_of_arm;
  for (std::size_t a = 0; a < plan.arms.size(); ++a) {
    const auto it = std::find(design.keys.begin(), design.keys.end(), plan.arms[a].key);
    if (it == design.keys.end()) continue;  // the canary, or an arm outside the design
    auto [row, added] = row_of_key.emplace(plan.arms[a].key, out.configs.size());
    if (added) {
      out.configs.push_back(static_cast<std::size_t>(it - design.keys.begin()));
      out.y.emplace_back(columns, std::numeric_limits<double>::quiet_NaN());
    }
    row_of_arm[static_cast<int>(a)] = row->second;
  }
  std::vector<std::vector<std::pair<double, int>>> sums(out.y.size(), std::vector<std::pair<double, int>>(columns, {0.0, 0}));
  for (const auto& s : samples) {
    if (s.warmup || s.status != sample_status::ok || s.round < 1 || s.round > plan.rounds) continue;
    const auto row = row_of_arm.find(s.arm);
    if (row == row_of_arm.end() || !health.arms[static_cast<std::size_t>(s.arm)].invalid_reason.empty()) continue;
    const auto it = s.metrics.find(metric);
    if (it == s.metrics.end() || !(it->second > 0) || !std::isfinite(it->second)) continue;
    const int column = layouts ? plan.arms[static_cast<std::size_t>(s.arm)].layout : s.round - 1;
    auto& cell = sums[row->second][static_cast<std::size_t>(column)];
    cell.first += std::log(it->second);
    cell.second += 1;
  }
  for (std::size_t r = 0; r < out.y.size(); ++r)
    for (std::size_t c = 0; c < columns; ++c)
      if (sums[r][c].second > 0) out.y[r][c] = sums[r][c].first / sums[r][c].second;
  return out;
}

metric_effects effects_report(const std::string& metric, const recorded_design& design, const search::factorial_outcome& f,
                              const std::vector<double>& measured, const std::string& replicates) {
  metric_effects out;
  std::set<std::vector<int>> culprits;
  for (const auto& c : f.culprits) culprits.insert(c.factors);
  // "rounds" counts the replicates of a configuration, whatever they were (`replicates`).
  out.json = {{"metric", metric},          {"sigma", f.screen.sigma}, {"rounds", f.screen.rounds},
              {"replicates", replicates}, {"configs", f.screen.configs}};
  out.table += fmt::format("\n{} — effects on log time, 0/1 coding (ratio = exp γ), {} configs × {} {}, σ̂ {:.4f}\n", metric,
                           f.screen.configs, f.screen.rounds, replicates, f.screen.sigma);
  out.table += fmt::format("  {:<22} {:>8} {:>19} {:>9}  {}\n", "term", "ratio", "95% CI", "p (Holm)", "culprit");
  for (const auto& e : f.screen.attribution) {
    const std::string term = term_name(design.factors, e.factors);
    const bool culprit = culprits.count(e.factors) > 0;
    out.records.push_back({"", metric, term, e.estimate, e.se, e.ci_low, e.ci_high, e.p_value, e.p_adjusted, std::nullopt});
    out.json["effects"].push_back({{"term", term}, {"effect", e.estimate}, {"ratio", std::exp(e.estimate)}, {"se", e.se},
                                   {"ci_low", e.ci_low}, {"ci_high", e.ci_high}, {"p_value", e.p_value},
                                   {"p_adjusted", e.p_adjusted}, {"culprit", culprit}});
    out.table += fmt::format("  {:<22} {:>8.4f} {:>8.4f}–{:<10.4f} {:>9.2g}  {}\n", term, std::exp(e.estimate), std::exp(e.ci_low),
                             std::exp(e.ci_high), e.p_adjusted, culprit ? "yes" : "");
  }
  for (const auto& t : f.screen.not_estimable) {
    out.json["not_estimable"].push_back(term_name(design.factors, t));
    out.table += fmt::format("  {:<22} not estimable: a configuration is missing and the rest cannot separate it\n",
                             term_name(design.factors, t));
  }
  for (const auto& e : f.screen.effects)
    out.json["screen"].push_back({{"term", term_name(design.factors, e.factors)}, {"effect", e.estimate}, {"se", e.se},
                                  {"p_adjusted", e.p_adjusted}});
  // Per variant: what the model attributes (Σ of its active terms) beside the measured mean.
  out.table += fmt::format("  {:<22} {:>8} {:>9}  {}\n", "variant", "measured", "model", "attributed to");
  for (std::size_t c = 0; c < design.d.runs.size(); ++c) {
    const double predicted = search::predict(f.screen.attribution, design.d.runs[c]);
    std::vector<std::string> terms;
    for (const auto& e : f.screen.attribution) {
      bool active = true;
      for (int j : e.factors) active = active && design.d.runs[c][static_cast<std::size_t>(j)] == 1;
      if (active && culprits.count(e.factors)) terms.push_back(term_name(design.factors, e.factors));
    }
    nlohmann::json row = {{"variant", design.keys[c]}, {"model_ratio", std::exp(predicted)}, {"culprits", terms}};
    const bool have = c < measured.size() && std::isfinite(measured[c]);
    if (have) row["measured_ratio"] = std::exp(measured[c]);
    out.json["attribution"].push_back(row);
    out.table += fmt::format("  {:<22} {:>8} {:>9.4f}  {}\n", design.keys[c], have ? fmt::format("{:.4f}", std::exp(measured[c])) : "—",
                             std::exp(predicted), terms.empty() ? "-" : fmt::format("{}", fmt::join(terms, ", ")));
  }
  return out;
}

design_effects experiment_effects(const recorded_design& design, const run_plan& plan, const std::vector<sample>& samples,
                                  const analysis_result& analysis, const std::string& experiment_id,
                                  const std::vector<std::string>& metrics, double margin, std::vector<std::string>& notes) {
  design_effects out;
  for (const auto& metric : metrics) {
    const search::shard_values v = design_values(design, plan, samples, analysis, metric);
    const int columns = plan.layouts > 0 ? plan.layouts : plan.rounds;  // design_values' replicates
    std::vector<std::vector<double>> y(design.d.runs.size(), std::vector<double>(static_cast<std::size_t>(columns), NAN));
    for (std::size_t i = 0; i < v.configs.size(); ++i) y[v.configs[i]] = v.y[i];
    try {
      auto e = effects_report(metric, design, search::attribute(design.d, y, 0.05, margin), search::measured_log_ratios(design.d, {v}),
                              plan.layouts > 0 ? "layouts" : "rounds");
      for (auto& rec : e.records) rec.experiment_id = experiment_id;
      out.json.push_back(e.json);
      out.tables += e.table;
      out.records.insert(out.records.end(), e.records.begin(), e.records.end());
    } catch (const std::invalid_argument& e) {
      notes.push_back(fmt::format("{}: no factorial effects — {} (failed builds leave the design incomplete)", metric, e.what()));
    }
  }
  return out;
}

design_analysis analyze_design(db::results_store& store, const std::vector<std::string>& experiments, const std::string& group,
                               const std::vector<std::string>& metrics, double margin) {
  const auto chosen = members(store, experiments, group);
  design_analysis out;
  out.design = design_from_json(chosen.front().config.at("design"));
  out.group = group_of(chosen.front());
  const int count = chosen.front().config.contains("shard") ? chosen.front().config["shard"].value("count", 1) : 1;
  out.shards = count;
  struct member {
    std::string id;
    run_plan plan;
    std::vector<sample> samples;
    analysis_result health;
  };
  std::vector<member> parts;
  for (const auto& e : chosen) {
    if (e.config.at("design") != out.design.json)
      throw usage_error(fmt::format("{} and {} ran different designs — analyse the shards of one design together",
                                    chosen.front().id, e.id));
    const int index = e.config.contains("shard") ? e.config["shard"].value("index", 0) : 0;
    const int n = e.config.contains("shard") ? e.config["shard"].value("count", 1) : 1;
    if (n != count) throw usage_error(fmt::format("{} is shard {}/{} but {} is one of {} — not one sharding", e.id, index, n, chosen.front().id, count));
    if (!out.present.insert(index).second)
      throw usage_error(fmt::format("two experiments are shard {}/{} (one is {}) — name the shards of one night with --experiment",
                                    index, count, e.id));
    if (e.status != db::experiment_status::complete)
      out.notes.push_back(fmt::format("{} is {} — its missing rounds are left out", e.id, db::to_string(e.status)));
    run_plan plan = run_plan::from_json(e.config);
    auto samples = store.list_samples(e.id);
    auto health = analyze(plan, samples);
    parts.push_back({e.id, std::move(plan), std::move(samples), std::move(health)});
  }
  for (int i = 0; i < count; ++i)
    if (!out.present.count(i)) out.notes.push_back(fmt::format("shard {}/{} is missing — merge its results file with `abtest db merge`", i, count));

  const auto chosen_metrics = metrics.empty() ? default_monitor_metrics(parts.front().plan, parts.front().samples) : metrics;
  for (const auto& metric : chosen_metrics) {
    std::vector<search::shard_values> shards;
    for (const auto& p : parts) shards.push_back(design_values(out.design, p.plan, p.samples, p.health, metric));
    try {
      const auto f = search::attribute_sharded(out.design.d, shards, 0.05, margin);
      auto e = effects_report(metric, out.design, f, search::measured_log_ratios(out.design.d, shards),
                              parts.front().plan.layouts > 0 ? "layouts" : "rounds");
      out.effects.json.push_back(e.json);
      out.effects.tables += e.table;
      out.effects.records.insert(out.effects.records.end(), e.records.begin(), e.records.end());
    } catch (const std::invalid_argument& e) {
      out.notes.push_back(fmt::format("{}: no factorial effects — {}", metric, without_error_prefix(e.what())));
    }
  }
  // The design's effects belong to each shard's experiment alike (reports show any one of them).
  for (const auto& p : parts) {
    out.experiments.push_back(p.id);
    auto mine = out.effects.records;
    for (auto& r : mine) r.experiment_id = p.id;
    store.replace_effects(p.id, mine);
  }
  return out;
}

}  // namespace abtest
