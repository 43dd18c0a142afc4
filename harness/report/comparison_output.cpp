// Terminal tables and the --json document of an analysed experiment (run, compare, import, matrix).
#include "harness/report/comparison_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

#include "harness/counts/mechanism_format.hpp"
#include "harness/sample/sample.hpp"
#include "harness/report/exporter.hpp"
#include "harness/report/mechanisms.hpp"
#include "harness/report/metric_policy_text.hpp"
#include "harness/report/metric_value.hpp"
#include "harness/report/verdict_json.hpp"

namespace abtest::report {
namespace {

// Order within a benchmark: its total first, the phases under it, process metrics, then counts.
int metric_rank(const std::string& metric) {
  const std::string name = metric.substr(metric.find('.') + 1);
  if (stats::is_count_metric(metric)) return 3;
  if (name == "total_s") return 0;
  if (name == "wall_s" || name == "maxrss_mib") return 2;
  return 1;
}

std::vector<std::string> arm_keys(const run_plan& plan) {
  std::vector<std::string> keys;
  for (const auto& a : plan.arms) keys.push_back(a.key);
  return keys;
}

std::vector<db::verdict_record> records_of(const comparison_result& in) {
  std::vector<db::verdict_record> rows;
  for (const auto& r : in.analysis.rows) rows.push_back(to_record(r, in.experiment_id));
  return rows;
}

// What was counted per benchmark, the failures, then a mechanism block per moved timing.
std::string counts_report(const comparison_result& in) {
  std::string out;
  std::map<std::string, std::string> described;
  for (const auto& c : *in.counts) {
    if (described.count(c.benchmark)) continue;
    std::string params;
    const nlohmann::json counted_params = c.spec.value("params", nlohmann::json::object());
    for (const auto& [k, v] : counted_params.items())
      params += fmt::format("{}{}={}", params.empty() ? "" : ", ", k, v.is_string() ? v.get<std::string>() : v.dump());
    const std::string region = c.spec.value("region", "");
    described[c.benchmark] = fmt::format("\ncounts of {} (Valgrind, exact): on {}{}\n", c.benchmark,
                                         params.empty() ? "the run's params" : params,
                                         region.empty() ? ", whole program" : ", in " + region);
  }
  for (const auto& [bench, line] : described) out += line;
  for (const auto& c : *in.counts)
    if (c.error && c.arm_idx < static_cast<int>(in.plan.arms.size()))
      out += fmt::format("  {} of {}: FAILED — {}\n", c.benchmark, in.plan.arms[c.arm_idx].key, *c.error);
  for (const auto& m : find_mechanisms(arm_keys(in.plan), records_of(in), *in.counts))
    out += fmt::format("\n{} · {}: {}\n{}", m.benchmark, m.block.candidate_label, explained_verdicts(m),
                       counts::format_terminal(m.block));
  return out;
}

// A layout split as the verdict's details store it (db::verdict_record::details).
nlohmann::json layout_json(const layout_split& l) {
  return {{"baseline", l.layouts_baseline}, {"candidate", l.layouts_candidate}, {"sd_baseline", l.sd_baseline},
          {"sd_candidate", l.sd_candidate}, {"within_sd", l.within_sd},         {"share", l.share}};
}

}  // namespace

std::string verdict_label(const verdict_row& r) {
  std::string v = stats::verdict_label(r.metric, r.verdict, r.policy.direction);
  if (r.immaterial) v += " (immaterial)";
  return v;
}

std::string format_value(const std::string& metric, double value) { return report::format_metric_value(metric, value); }

std::string verdict_row_text(const std::string& name, const verdict_row& r, bool with_policy) {
  const std::string ci = r.primary.has_ci ? fmt::format("[{:.3f}, {:.3f}]", r.primary.ratio_low(), r.primary.ratio_high()) : "—";
  return fmt::format("  {:<34} {:>12} {:>12} {:>7.3f}×  {:<19} {}\n", name, format_value(r.metric, r.baseline_median),
                     format_value(r.metric, r.candidate_median), r.primary.ratio(), ci,
                     verdict_label(r) + (with_policy ? policy_note(r.policy) : ""));
}

std::string render(const comparison_result& in, format f) {
  if (f == format::json) {
    nlohmann::json j = json_report(in);
    for (const auto& [key, value] : in.extra.items()) j[key] = value;
    return j.dump(2) + "\n";
  }
  if (f != format::terminal)
    throw std::invalid_argument("a comparison has no markdown or HTML output here — `abtest report EXPERIMENT` writes one");
  std::string out;
  for (const auto& line : in.lead) out += line + "\n";
  return out + terminal_report(in);
}

std::string render(const unpaired_result& u, format f) {
  if (f == format::json) {
    experiment_result result{u.after, u.before, {}};
    for (const auto& r : u.analysis.rows) result.verdicts.push_back(to_record(r, u.after));
    nlohmann::json j = to_json(result);
    j["variant"] = u.variant;
    j["paired"] = false;
    return j.dump(2) + "\n";
  }
  if (f != format::terminal) throw std::invalid_argument("an unpaired comparison has no markdown or HTML output");
  std::string out = fmt::format("{} in {} (before) vs {} (after), unpaired (Welch on log values, Holm across the metrics)\n"
                                "  {:<34} {:>12} {:>12} {:>8}  {:<19} {}\n",
                                u.variant, u.before, u.after, "metric", "before", "after", "ratio", "95% CI", "verdict");
  for (const auto& r : u.analysis.rows) out += verdict_row_text(r.metric, r, false);
  return out;
}

std::string terminal_report(const comparison_result& in) {
  std::string out;
  const auto& plan = in.plan;
  out += fmt::format("experiment {} · {} rounds{} · seed {} · margin {:.1f}%{}\n", in.experiment_id, in.rounds_done,
                     in.stopped_early ? " (adaptive: stopped when decisive)" : in.interrupted ? " (interrupted: resume with --resume)" : "",
                     plan.seed, plan.margin * 100, plan.metric_rules.empty() ? "" : " unless the manifest says otherwise");
  const auto groups = variant_groups(plan);
  if (plan.layouts > 0)
    out += fmt::format("  {} layouts per variant: each interval holds the variance between layouts (the `layout` line: its share)\n",
                       plan.layouts);
  if (plan.duet) out += "  duet: baseline and candidate ran at the same time, one core each, swapped every round\n";
  for (size_t g = 1; g < groups.size(); ++g) {
    const auto& h = in.analysis.arms[groups[g][0]];
    if (!h.invalid_reason.empty()) out += fmt::format("  {} is INVALID: {}\n", plan.arms[groups[g][0]].key, h.invalid_reason);
  }
  for (size_t a = 0; a < plan.arms.size(); ++a) {
    const auto& h = in.analysis.arms[a];
    const std::string layout = plan.arms[a].layout >= 0 ? fmt::format(" (layout {})", plan.arms[a].layout) : "";
    if (h.failed > 0)
      out += fmt::format("  {}{}: {} failed invocation(s), first: {}\n", plan.arms[a].key, layout, h.failed, h.first_error);
  }
  for (const auto& bench : plan.benchmarks) {
    std::vector<const verdict_row*> rows;
    for (const auto& r : in.analysis.rows)
      if (r.benchmark == bench) rows.push_back(&r);
    if (rows.empty()) continue;
    std::stable_sort(rows.begin(), rows.end(), [](const verdict_row* x, const verdict_row* y) {
      if (x->arm != y->arm) return x->arm < y->arm;
      return metric_rank(x->metric) < metric_rank(y->metric);
    });
    out += fmt::format("\n{}\n", bench);
    out += fmt::format("  {:<34} {:>12} {:>12} {:>8}  {:<19} {}\n", "metric", plan.arms[0].key.substr(0, 12), "candidate", "ratio",
                       "95% CI", "verdict");
    int last_arm = -1;
    for (const auto* r : rows) {
      if (r->arm != last_arm && groups.size() > 2) out += fmt::format("  {} vs {}\n", r->variant, r->baseline);
      last_arm = r->arm;
      const bool phase = metric_rank(r->metric) == 1 &&
                         std::any_of(rows.begin(), rows.end(), [&](const verdict_row* t) { return t->arm == r->arm && metric_rank(t->metric) == 0; });
      const std::string name = (phase ? "  " : "") + r->metric.substr(r->metric.find('.') + 1);
      out += verdict_row_text(name, *r, true);
      if (r->layouts) out += fmt::format("  {:<34} layout: {}\n", "", layout_summary(layout_json(*r->layouts)));
      if (!r->note.empty() && r->verdict != stats::verdict::invalid) out += fmt::format("  {:<34} note: {}\n", "", r->note);
    }
  }
  if (in.counts) out += counts_report(in);
  if (in.reference && in.reference->present) {
    const auto& ref = *in.reference;
    out += fmt::format("\nreference: {}\n", ref.label);
    if (!ref.comparable) {
      out += fmt::format("  not comparable — {}; shown as context only\n", ref.why);
    } else {
      for (const auto& r : ref.rows)
        out += fmt::format("  {:<26} {:<14} {:>12} vs {:>12}  {:.3f}× [{:.3f}, {:.3f}] {}\n", r.metric, r.variant,
                           format_value(r.metric, r.median), format_value(r.metric, r.reference), r.estimate.ratio(),
                           r.estimate.ratio_low(), r.estimate.ratio_high(),
                           stats::verdict_label(r.metric, r.verdict, r.policy.direction) + policy_note(r.policy));
    }
  }
  return out;
}

db::verdict_record to_record(const verdict_row& r, const std::string& experiment_id) {
  db::verdict_record v;
  v.experiment_id = experiment_id;
  v.variant = r.variant;
  v.baseline = r.baseline;
  v.metric = r.metric;
  v.n = r.n;
  v.baseline_median = r.baseline_median;
  v.candidate_median = r.candidate_median;
  if (r.n > 0 && std::isfinite(r.primary.estimate)) v.ratio = r.primary.ratio();
  if (r.primary.has_ci) {
    v.ci_low = r.primary.ratio_low();
    v.ci_high = r.primary.ratio_high();
  }
  if (r.robust.has_ci) {
    v.hl_ratio = r.robust.ratio();
    v.hl_low = r.robust.ratio_low();
    v.hl_high = r.robust.ratio_high();
  }
  if (std::isfinite(r.primary.p_value)) v.p_value = r.primary.p_value;  // NaN: not estimated (a count's row)
  if (std::isfinite(r.p_adjusted)) v.p_adjusted = r.p_adjusted;
  v.verdict = db::parse<db::verdict_kind>(stats::to_string(r.verdict));
  v.immaterial = r.immaterial;
  if (!r.note.empty()) v.note = r.note;
  if (r.layouts) v.details["layouts"] = layout_json(*r.layouts);
  v.details["policy"] = policy_json(r.policy);
  v.created_at = std::chrono::system_clock::now();
  return v;
}

nlohmann::json json_report(const comparison_result& in) {
  experiment_result result{in.experiment_id, in.plan.arms.empty() ? "" : in.plan.arms[0].key, records_of(in)};
  if (in.counts) result.mechanisms = find_mechanisms(arm_keys(in.plan), result.verdicts, *in.counts);
  nlohmann::json out = to_json(result);
  nlohmann::json arms = nlohmann::json::array();
  for (size_t a = 0; a < in.plan.arms.size(); ++a) {
    const auto& h = in.analysis.arms[a];
    nlohmann::json j = {{"variant", in.plan.arms[a].key}, {"ok", h.ok}, {"failed", h.failed}, {"backend", h.backend}};
    if (!h.invalid_reason.empty()) j["invalid"] = h.invalid_reason;
    if (!h.first_error.empty()) j["first_error"] = h.first_error;
    if (in.plan.arms[a].layout >= 0) j["layout"] = {{"index", in.plan.arms[a].layout}, {"seed", in.plan.arms[a].layout_seed}};
    arms.push_back(std::move(j));
  }
  if (in.plan.layouts > 0) out["layouts"] = in.plan.layouts;
  out["duet"] = in.plan.duet;
  out["rounds"] = in.rounds_done;
  out["stopped_early"] = in.stopped_early;
  out["interrupted"] = in.interrupted;
  out["seed"] = in.plan.seed;
  out["arms"] = arms;
  if (in.counts) {
    nlohmann::json counts = nlohmann::json::array();
    for (const auto& c : *in.counts) {
      nlohmann::json j = {{"variant", c.arm_idx < static_cast<int>(in.plan.arms.size()) ? in.plan.arms[c.arm_idx].key : ""},
                          {"benchmark", c.benchmark}, {"ok", c.counts.has_value()},
                          {"params", c.spec.value("params", nlohmann::json::object())}, {"region", c.spec.value("region", "")},
                          {"wall_s", c.wall_s ? nlohmann::json(*c.wall_s) : nlohmann::json()}};
      if (c.counts) j["totals"] = c.counts->value("totals", nlohmann::json::object());
      if (c.error) j["error"] = *c.error;
      counts.push_back(std::move(j));
    }
    out["counts"] = std::move(counts);
  }
  if (in.reference && in.reference->present) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : in.reference->rows)
      rows.push_back({{"metric", r.metric}, {"variant", r.variant}, {"reference", r.reference}, {"median", r.median},
                      {"ratio", r.estimate.ratio()}, {"verdict", stats::to_string(r.verdict)}});
    out["reference"] = {{"label", in.reference->label}, {"comparable", in.reference->comparable}, {"why", in.reference->why}, {"rows", rows}};
  }
  return out;
}

std::string render(const nothing_measured& n, format f) {
  if (f == format::json) {
    auto j = to_json(experiment_result{"", n.baseline, {}});  // nothing measured: experiment null
    j["notes"] = n.notes;
    return j.dump(2) + "\n";
  }
  if (f != format::terminal) throw std::invalid_argument("a run that measured nothing has no markdown or HTML output");
  std::string out;
  for (const auto& note : n.notes) out += note + "\n";
  return out;
}

}  // namespace abtest::report
