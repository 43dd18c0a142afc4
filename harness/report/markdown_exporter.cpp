// Markdown report (see markdown_exporter.hpp): GitHub-flavoured tables, verdicts in capitals.
#include "harness/report/markdown_exporter.hpp"

#include "harness/report/alerts.hpp"
#include "harness/report/mechanisms.hpp"
#include "harness/report/metric_value.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace abtest::report {
namespace {

// A GitHub table; a `|` inside a cell (a C++ operator|) is escaped so that it does not end the cell.
std::string table(const text_table& t) {
  const auto cell = [](std::string s) {
    for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.insert(i, "\\");
    return s;
  };
  std::string out = "|";
  for (const auto& h : t.head) out += " " + cell(h) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < t.head.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (const auto& c : row) out += " " + cell(c) + " |";
    out += "\n";
  }
  return out;
}

}  // namespace

std::string mechanism_markdown(const mechanism_entry& m) {
  std::string out = fmt::format("### {}: {} vs {}\n\nExplains {}.\n\n", m.benchmark, m.block.candidate_label, m.block.base_label,
                                explained_verdicts(m));
  for (const auto& line : mechanism_remarks(m.block)) out += fmt::format("- {}\n", line);
  for (const auto& t : mechanism_tables(m.block)) out += "\n" + table(t);
  return out + "\n";
}

std::string markdown_exporter::render(const report_data& r) const {
  std::string out = fmt::format("# abtest report — {}\n\n", r.title);
  if (!r.experiment.empty())
    out += fmt::format("Experiment `{}` ({}, {}), started {}.\n\n", r.experiment, r.kind, r.status, r.started_at);
  for (const auto& line : design_remarks(r)) out += line + "\n\n";
  const auto regressions = std::count_if(r.verdicts.begin(), r.verdicts.end(), is_regression);
  const auto open = std::count_if(r.changepoints.begin(), r.changepoints.end(),
                                  [](const changepoint_row& c) { return c.state == "new" && c.magnitude > 0; });
  out += fmt::format("**{} regression{}**, {} new slower change point{}.\n\n", regressions, regressions == 1 ? "" : "s", open,
                     open == 1 ? "" : "s");
  if (!r.verdicts.empty()) {
    out += "## Verdicts\n\n| variant | metric | n | baseline | candidate | change | 95% CI | p (Holm) | verdict |\n"
           "|---|---|---:|---:|---:|---:|---|---:|---|\n";
    for (const auto& v : r.verdicts)
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", v.variant, v.metric, v.n,
                         format_metric_cell(v.metric, v.baseline_median), format_metric_cell(v.metric, v.candidate_median),
                         v.ratio ? format_change(*v.ratio) : "—", format_ci(v), format_number(v.p_adjusted), verdict_label(v));
    out += "\n";
  }
  if (const auto t = layout_table(r)) out += "## Layouts (how much of each difference is where the linker put the code)\n\n" + table(*t) + "\n";
  // A bisection's terms as culprits and offsets (design §9); other experiments' effects in one table.
  const auto effects_table = [&](const std::string& heading, const std::string& role) {
    std::string rows;
    for (const auto& e : r.effects)
      if (e.role == role)
        rows += fmt::format("| {} | {} | {:+.4f} | {} | {} |\n", e.metric, e.term, e.estimate,
                            e.ci_low && e.ci_high ? fmt::format("[{:+.4f}, {:+.4f}]", *e.ci_low, *e.ci_high) : "—",
                            format_number(e.p_adjusted));
    if (!rows.empty()) out += "## " + heading + "\n\n| metric | term | effect | 95% CI | p (Holm) |\n|---|---|---:|---|---:|\n" + rows + "\n";
  };
  effects_table("Effects (ln ratio)", "");
  effects_table("Culprits (ln ratio, pushing the way of the verdict)", "culprit");
  effects_table("Offsets (ln ratio, pulling the other way)", "offset");
  effects_table("Rejected candidates (ln ratio; their confirmations did not support them)", "rejected");
  if (r.mechanisms && !r.mechanisms->empty()) {
    out += "## Mechanisms (Valgrind counts, exact)\n\n";
    for (const auto& m : *r.mechanisms) out += mechanism_markdown(m);
  }
  if (!r.phases.empty()) {
    std::set<std::string> names;
    for (const auto& p : r.phases)
      for (const auto& [k, v] : p.phases) names.insert(k);
    out += "## Phases (median s)\n\n| variant |";
    for (const auto& n : names) out += fmt::format(" {} |", n);
    out += "\n|---|";
    for (std::size_t i = 0; i < names.size(); ++i) out += "---:|";
    out += "\n";
    for (const auto& p : r.phases) {
      out += fmt::format("| {} |", p.variant);
      for (const auto& n : names) {
        const auto it = p.phases.find(n);
        out += fmt::format(" {} |", it == p.phases.end() ? std::string("—") : format_number(it->second));
      }
      out += "\n";
    }
    out += "\n";
  }
  if (!r.changepoints.empty()) {
    out += "## Change points\n\n| # | variant | metric | since | experiment | change | p | state |\n"
           "|---:|---|---|---|---|---:|---:|---|\n";
    for (const auto& c : r.changepoints)
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", c.id, c.variant, c.metric, c.at, c.experiment,
                         format_change(1 + c.magnitude), format_number(c.p_value), c.state);
    out += "\n";
  }
  if (!r.alerts.empty()) out += "## Open alerts\n\n" + table(alerts_table(r.alerts)) + "\n`abtest alerts` lists them; `abtest alerts ack|expect|invalid ID --note TEXT` triages one.\n\n";
  if (!r.trends.empty()) {
    out += "## Nightly series\n\n| variant | metric | nights | first | latest |\n|---|---|---:|---:|---:|\n";
    for (const auto& t : r.trends)
      out += fmt::format("| {} | {} | {} | {} | {} |\n", t.variant, t.metric, t.points.size(),
                         t.points.empty() ? "—" : format_number(t.points.front().second),
                         t.points.empty() ? "—" : format_number(t.points.back().second));
    out += "\n";
  }
  return out;
}

}  // namespace abtest::report
