// HTML report with gnuplot SVG plots inlined (see html_exporter.hpp).
#include "harness/report/html_exporter.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>

#include "harness/report/gnuplot.hpp"

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

// A gnuplot string literal.
std::string q(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string figure(const std::string& title, const std::string& script, int width, int height) {
  std::string error;
  const auto svg = plot_svg(script, width, height, &error);
  return fmt::format("<figure><figcaption>{}</figcaption>{}</figure>\n", esc(title),
                     svg ? *svg : "<p class=\"missing\">plot not drawn: " + esc(error) + "</p>");
}

std::string distributions_plot(const report_data& r) {
  std::string s = "set style fill solid 0.3\nset key off\nset ylabel " + q(r.headline_metric) + "\nset xtics (";
  for (std::size_t i = 0; i < r.distributions.size(); ++i)
    s += fmt::format("{}{} {}", i ? ", " : "", q(r.distributions[i].variant), i + 1);
  s += ")\n$d << EOD\n";
  for (std::size_t i = 0; i < r.distributions.size(); ++i) {
    for (double v : r.distributions[i].values) s += fmt::format("{:.9g}\n", v);
    s += "\n\n";
  }
  s += fmt::format("EOD\nset xrange [0.5:{}.5]\nplot for [i=0:{}] $d index i using (i+1):1 with boxplot lc rgb '#3b6ea5'\n",
                   r.distributions.size(), r.distributions.size() - 1);
  return s;
}

std::string effects_plot(const report_data& r) {
  std::string s = "set style fill solid 0.5\nset key off\nset boxwidth 0.6\nset xtics rotate by -30\nset ylabel 'effect (ln ratio)'\n"
                  "set xzeroaxis\n$e << EOD\n";
  for (const auto& e : r.effects)
    s += fmt::format("{} {:.9g} {:.9g} {:.9g}\n", q(e.metric == r.headline_metric ? e.term : e.metric + ":" + e.term), e.estimate,
                     e.ci_low.value_or(e.estimate), e.ci_high.value_or(e.estimate));
  s += "EOD\nplot $e using 0:2:xtic(1) with boxes lc rgb '#c0504d', '' using 0:2:3:4 with yerrorbars lc rgb 'black' pt 0\n";
  return s;
}

std::string phases_plot(const report_data& r) {
  std::set<std::string> names;
  for (const auto& p : r.phases)
    for (const auto& [k, v] : p.phases) names.insert(k);
  std::string s = "set style data histograms\nset style histogram rowstacked\nset style fill solid 0.8 border -1\n"
                  "set boxwidth 0.6\nset key outside right\nset ylabel 'median s'\n$p << EOD\nvariant";
  for (const auto& n : names) s += " " + q(n);
  s += "\n";
  for (const auto& p : r.phases) {
    s += q(p.variant);
    for (const auto& n : names) {
      const auto it = p.phases.find(n);
      s += fmt::format(" {:.9g}", it == p.phases.end() ? 0.0 : it->second);
    }
    s += "\n";
  }
  s += fmt::format("EOD\nplot for [c=2:{}] $p using c:xtic(1) title columnheader(c)\n", names.size() + 1);
  return s;
}

// One plot per metric: every variant's nightly medians, change points as dashed red lines.
std::string trend_plot(const report_data& r, const std::string& metric) {
  std::string s = "set key outside right\nset xlabel 'night'\nset ylabel " + q(metric) + "\n";
  std::vector<const trend*> ts;
  for (const auto& t : r.trends)
    if (t.metric == metric) ts.push_back(&t);
  int arrow = 1;
  for (const auto* t : ts)
    for (const auto& c : r.changepoints)
      if (c.variant == t->variant && c.metric == metric)
        for (std::size_t i = 0; i < t->points.size(); ++i)
          if (t->points[i].first == c.at)
            s += fmt::format("set arrow {} from {},graph 0 to {},graph 1 nohead lc rgb '#d62728' dt 2 lw 2\n", arrow++, i + 1, i + 1);
  s += "$t << EOD\n";
  for (const auto* t : ts) {
    for (std::size_t i = 0; i < t->points.size(); ++i) s += fmt::format("{} {:.9g}\n", i + 1, t->points[i].second);
    s += "\n\n";
  }
  s += "EOD\nplot ";
  for (std::size_t i = 0; i < ts.size(); ++i)
    s += fmt::format("{}$t index {} using 1:2 with linespoints pt 7 ps 0.6 title {}", i ? ", " : "", i, q(ts[i]->variant));
  return s + "\n";
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
  if (!r.verdicts.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& v : r.verdicts)
      rows.push_back({v.variant, v.metric, std::to_string(v.n), format_number(v.baseline_median), format_number(v.candidate_median),
                      v.ratio ? format_change(*v.ratio) : "—", format_ci(v), format_number(v.p_adjusted), verdict_label(v)});
    s += "<h2>Verdicts</h2>\n" +
         table({"variant", "metric", "n", "baseline", "candidate", "change", "95% CI", "p (Holm)", "verdict"}, rows);
  }
  // A bisection's terms as culprits and offsets (DESIGN §9); other experiments' effects in one table.
  for (const auto& [role, heading] : {std::pair{"", "Effects (change attributed to each term)"},
                                      std::pair{"culprit", "Culprits (pushing the way of the verdict)"},
                                      std::pair{"offset", "Offsets (pulling the other way)"}}) {
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
  if (!r.distributions.empty())
    s += figure("Distribution per variant: " + r.headline_metric, distributions_plot(r), 1000, 420);
  if (!r.effects.empty()) s += figure("Effects and interactions (ln ratio, 95% CI)", effects_plot(r), 1000, 420);
  if (!r.phases.empty()) s += figure("Phase breakdown (median s)", phases_plot(r), 1000, 420);
  if (!r.changepoints.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& c : r.changepoints)
      rows.push_back({std::to_string(c.id), c.variant, c.metric, c.at, c.experiment, format_change(1 + c.magnitude),
                      format_number(c.p_value), c.state});
    s += "<h2>Change points</h2>\n" + table({"#", "variant", "metric", "since", "experiment", "change", "p", "state"}, rows);
  }
  std::set<std::string> metrics;
  for (const auto& t : r.trends) metrics.insert(t.metric);
  for (const auto& m : metrics) s += figure("Nightly trend: " + m, trend_plot(r, m), 1000, 380);
  return s + "</body></html>\n";
}

}  // namespace abtest::report
