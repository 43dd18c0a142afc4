// HTML report with gnuplot SVG plots inlined (see html_exporter.hpp).
#include "harness/report/html_exporter.hpp"

#include "harness/report/metric_value.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "harness/report/alerts.hpp"
#include "harness/report/gnuplot.hpp"
#include "harness/report/mechanisms.hpp"
#include "harness/report/plots.hpp"

namespace abtest::report {
namespace {

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string figure(const plot& p) {
  std::string error;
  const auto svg = plot_svg(p.script, p.width, p.height, &error);
  return fmt::format("<figure><figcaption>{}</figcaption>{}</figure>\n", esc(p.caption),
                     svg ? *svg : "<p class=\"missing\">plot not drawn: " + esc(error) + "</p>");
}

std::string table(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows) {
  std::string s = "<table><tr>";
  for (const auto& h : head) s += "<th>" + esc(h) + "</th>";
  s += "</tr>\n";
  for (const auto& row : rows) {
    s += "<tr>";
    for (const auto& c : row) s += "<td>" + esc(c) + "</td>";
    s += "</tr>\n";
  }
  return s + "</table>\n";
}

}  // namespace

std::string html_exporter::render(const report_data& r) const {
  std::string s = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>abtest report — {0}</title>\n"
      "<style>body{{font-family:sans-serif;margin:2em;max-width:1150px}}table{{border-collapse:collapse;margin:1em 0}}"
      "td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}th{{background:#f3f3f3}}"
      "figure{{margin:1em 0}}figcaption{{font-weight:bold}}.missing{{color:#a00}}</style></head><body>\n"
      "<h1>abtest report — {0}</h1>\n",
      esc(r.title));
  if (!r.experiment.empty())
    s += fmt::format("<p>Experiment <code>{}</code> ({}, {}), started {}.</p>\n", esc(r.experiment), esc(r.kind), esc(r.status),
                     esc(r.started_at));
  for (const auto& line : design_remarks(r)) s += "<p>" + esc(line) + "</p>\n";
  if (!r.verdicts.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& v : r.verdicts)
      rows.push_back({v.variant, v.metric, std::to_string(v.n), format_metric_cell(v.metric, v.baseline_median), format_metric_cell(v.metric, v.candidate_median),
                      v.ratio ? format_change(*v.ratio) : "—", format_ci(v), format_number(v.p_adjusted), verdict_label(v)});
    s += "<h2>Verdicts</h2>\n" +
         table({"variant", "metric", "n", "baseline", "candidate", "change", "95% CI", "p (Holm)", "verdict"}, rows);
  }
  if (const auto t = layout_table(r))
    s += "<h2>Layouts (how much of each difference is where the linker put the code)</h2>\n" + table(t->head, t->rows);
  // A bisection's terms as culprits and offsets (design §9); other experiments' effects in one table.
  for (const auto& [role, heading] : {std::pair{"", "Effects (change attributed to each term)"},
                                      std::pair{"culprit", "Culprits (pushing the way of the verdict)"},
                                      std::pair{"offset", "Offsets (pulling the other way)"},
                                      std::pair{"rejected", "Rejected candidates (their confirmations did not support them)"}}) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& e : r.effects)
      if (e.role == role)
        rows.push_back({e.metric, e.term, format_change(std::exp(e.estimate)),
                        e.ci_low && e.ci_high ? fmt::format("[{}, {}]", format_change(std::exp(*e.ci_low)),
                                                            format_change(std::exp(*e.ci_high)))
                                              : "—",
                        format_number(e.p_adjusted)});
    if (!rows.empty())
      s += "<h2>" + std::string(heading) + "</h2>\n" + table({"metric", "term", "change", "95% CI", "p (Holm)"}, rows);
  }
  if (r.mechanisms && !r.mechanisms->empty()) {
    s += "<h2>Mechanisms (Valgrind counts, exact)</h2>\n";
    for (const auto& m : *r.mechanisms) {
      s += fmt::format("<h3>{}: {} vs {}</h3>\n<p>Explains {}.</p>\n<ul>", esc(m.benchmark), esc(m.block.candidate_label),
                       esc(m.block.base_label), esc(explained_verdicts(m)));
      for (const auto& line : mechanism_remarks(m.block)) s += "<li>" + esc(line) + "</li>";
      s += "</ul>\n";
      for (const auto& t : mechanism_tables(m.block)) s += table(t.head, t.rows);
    }
  }
  if (!r.distributions.empty()) s += figure(distributions_plot(r));
  if (!r.effects.empty()) s += figure(effects_plot(r));
  if (!r.phases.empty()) s += figure(phases_plot(r));
  if (!r.changepoints.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& c : r.changepoints)
      rows.push_back({std::to_string(c.id), c.variant, c.metric, c.at, c.experiment, format_change(1 + c.magnitude),
                      format_number(c.p_value), c.state});
    s += "<h2>Change points</h2>\n" + table({"#", "variant", "metric", "since", "experiment", "change", "p", "state"}, rows);
  }
  if (!r.alerts.empty()) {
    const text_table t = alerts_table(r.alerts);
    s += "<h2>Open alerts</h2>\n" + table(t.head, t.rows);
  }
  std::set<std::string> metrics;
  for (const auto& t : r.trends) metrics.insert(t.metric);
  for (const auto& m : metrics) s += figure(trend_plot(r, m));
  return s + "</body></html>\n";
}

}  // namespace abtest::report
