// A toggle search's result as the terminal and --json show it (design §9), and its plan's price.
#include "harness/report/bisect_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <stdexcept>

#include "harness/counts/mechanism_format.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::report {

std::string term_name(const std::vector<std::string>& toggles) { return fmt::format("{}", fmt::join(toggles, "*")); }

std::string stopped_text(const bisect_result& o) {
  std::string out = fmt::format("stopped by {} after {:.0f} s", o.stopped == "budget" ? "--budget-s" : "Ctrl-C", o.wall_s);
  if (o.r.undecided.empty()) return out + ": nothing left undecided";
  std::vector<std::string> terms;
  for (const auto& c : o.r.undecided)
    terms.push_back(fmt::format("{} {:.4f} (CI {:.4f}–{:.4f})", term_name(c.toggles), std::exp(c.effect), std::exp(c.ci_low),
                                std::exp(c.ci_high)));
  return out + fmt::format(": undecided {}", fmt::join(terms, ", "));
}

nlohmann::json price_json(const search::price& p) { return {{"runs", p.runs}, {"builds", p.builds}, {"wall_s", p.wall_s}}; }

nlohmann::json plan_json(const search::search_plan& p, const search::unit_costs& u) {
  nlohmann::json alternatives = nlohmann::json::array();
  for (const auto& a : p.alternatives) alternatives.push_back({{"design", a.label}, {"price", price_json(a.expected)}});
  return {{"design", p.chosen.label},
          {"rounds", p.chosen.rounds},
          {"price", price_json(p.chosen.expected)},
          {"reason", p.reason},
          {"alternatives", alternatives},
          {"costs", {{"build_s", u.build_s}, {"run_s", u.run_s}, {"sigma", u.sigma}, {"basis", u.basis}}}};
}

std::string plan_text(const search::search_plan& p) {
  const auto line = [](const search::priced_design& d) {
    return fmt::format("{}: {} runs, {} builds, ~{:.0f} s", d.label, d.expected.runs, d.expected.builds, d.expected.wall_s);
  };
  std::string others;
  for (const auto& a : p.alternatives)
    if (a.label != p.chosen.label) others += (others.empty() ? "" : "; ") + line(a);
  return fmt::format("plan ({}): {}{}", p.reason, line(p.chosen), others.empty() ? "" : " (" + others + ")");
}

namespace {

const counts::mechanism* mechanism_of(const bisect_result& o, const search::culprit& c) {
  const auto it = o.mechanisms.find(term_name(c.toggles));
  return it == o.mechanisms.end() ? nullptr : &it->second;
}

nlohmann::json terms_json(const bisect_result& o, const std::vector<search::culprit>& list) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : list) {
    nlohmann::json j = {{"toggles", c.toggles}, {"effect", c.effect}, {"ci_low", c.ci_low}, {"ci_high", c.ci_high},
                        {"ratio", std::exp(c.effect)}};
    if (c.confirmed) j["confirmed"] = *c.confirmed;
    if (!c.support.empty()) j["support"] = c.support;
    if (!o.screen_experiment.empty()) {
      j["mechanisms"] = nlohmann::json::array();
      if (const auto* block = mechanism_of(o, c)) j["mechanisms"].push_back(counts::to_json(*block));
    }
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json to_json(const bisect_result& o) {
  return {{"experiment", o.experiment},
          {"from", o.r.from_key},
          {"to", o.r.to_key},
          {"metric", o.metric},
          {"better", o.worse > 0 ? "lower" : "higher"},
          {"verdict", stats::to_string(o.r.overall.verdict)},
          {"ratio", o.r.overall.estimate.ratio()},
          {"culprits", terms_json(o, o.split.culprits)},
          {"offsets", terms_json(o, o.split.offsets)},
          {"rejected", terms_json(o, o.split.rejected)},
          {"undecided", terms_json(o, o.r.undecided)},
          {"stopped", o.stopped.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.stopped)},
          {"run_seconds", o.r.run_seconds},
          {"counts_screen", o.screen_experiment.empty()
                                ? nlohmann::json(nullptr)
                                : nlohmann::json{{"experiment", o.screen_experiment}, {"not_timed", o.not_timed}}},
          {"skipped", o.r.skipped},
          {"runs", o.r.runs},
          {"builds", o.r.builds},
          {"full_factorial", price_json(o.r.full_factorial)},
          {"half_width", o.r.half_width},
          {"plan", plan_json(o.r.plan, o.costs)},
          {"full_matrix_runs", o.r.full_matrix_runs},
          {"comparisons", o.r.comparisons},
          {"method", o.r.method},
          {"wall_s", o.wall_s},
          {"wall_basis", o.wall_basis},
          {"priced_wall_s", o.r.used.wall_s},
          {"priced_with", {{"build_s", o.priced_with.build_s}, {"run_s", o.priced_with.run_s}, {"basis", o.priced_with.basis}}},
          {"notes", o.notes}};
}

// The overall comparison, the method and what it cost against a full factorial.
std::string summary_text(const bisect_result& o, stats::better better) {
  const auto& r = o.r;
  std::string out = fmt::format("{} vs {} on {}: {} (ratio {:.4f}, 95% CI {:.4f}–{:.4f})\n", r.to_key, r.from_key, o.metric,
                                stats::verdict_label(o.metric, r.overall.verdict, better), r.overall.estimate.ratio(),
                                r.overall.estimate.ratio_low(), r.overall.estimate.ratio_high());
  const auto& ff = r.full_factorial;
  out += fmt::format("method: {}; {} comparisons, {} runs, {} builds, {:.0f} s {} (~{:.0f} s at the unit costs)\n", r.method,
                     r.comparisons, r.runs, r.builds, o.wall_s, o.wall_basis, r.used.wall_s);
  out += fmt::format("a full factorial to the same precision (95% CI ±{:.4f} on the culprits): {} runs, {} builds, ~{:.0f} s"
                     " — the search cost {:.2f}x its runs, {:.2f}x its wall (both at the unit costs)\n",
                     r.half_width, ff.runs, ff.builds, ff.wall_s, ff.runs ? static_cast<double>(r.runs) / static_cast<double>(ff.runs) : 0.0,
                     ff.wall_s > 0 ? r.used.wall_s / ff.wall_s : 0.0);
  return out;
}

// A line per term: culprits, offsets, rejected candidates, undecided ones.
std::string terms_text(const bisect_result& o, stats::better better) {
  const auto mechanisms = [&](const search::culprit& c) {
    const auto* block = mechanism_of(o, c);
    return block ? "  " + counts::format_terminal(*block, {.indent = "    "}) : std::string();
  };
  std::string out;
  if (o.split.culprits.empty()) out += "no culprit\n";
  for (const auto& c : o.split.culprits)
    out += fmt::format("culprit {:<24} ratio {:.4f} (CI {:.4f}–{:.4f})\n", term_name(c.toggles), std::exp(c.effect), std::exp(c.ci_low),
                       std::exp(c.ci_high)) +
           mechanisms(c);
  for (const auto& c : o.split.offsets)
    out += fmt::format("offset  {:<24} ratio {:.4f} (CI {:.4f}–{:.4f}) — pulls the other way ({})\n", term_name(c.toggles),
                       std::exp(c.effect), std::exp(c.ci_low), std::exp(c.ci_high),
                       stats::verdict_label(o.metric, c.effect * o.worse > 0 ? stats::verdict::slower : stats::verdict::faster, better)) +
           mechanisms(c);
  for (const auto& c : o.split.rejected)
    out += fmt::format("candidate {:<22} ratio {:.4f} — {} did not support it\n", term_name(c.toggles), std::exp(c.effect),
                       c.support == "four cells" ? "a measurement of its four cells" : "the confirmation A/Bs");
  for (const auto& c : o.r.undecided)
    out += fmt::format("undecided: {} {:.2f}× [{:.2f}, {:.2f}]\n", term_name(c.toggles), std::exp(c.effect), std::exp(c.ci_low),
                       std::exp(c.ci_high));
  return out;
}

std::string to_text(const bisect_result& o) {
  const stats::better better = o.worse > 0 ? stats::better::lower : stats::better::higher;
  std::string out;
  for (const auto& n : o.notes) out += fmt::format("note: {}\n", n);
  out += summary_text(o, better) + terms_text(o, better);
  if (!o.stopped.empty()) out += stopped_text(o) + " — culprits and offsets above are the terms it had decided\n";
  if (!o.r.skipped.empty()) out += fmt::format("skipped: {}\n", fmt::join(o.r.skipped, ", "));
  return out;
}

}  // namespace

std::string render(const bisect_result& o, format f) {
  if (f == format::json) return to_json(o).dump(2) + "\n";
  if (f == format::terminal) return to_text(o);
  throw std::invalid_argument("bisect has no markdown or HTML output — `abtest report EXPERIMENT` writes the stored search's");
}

}  // namespace abtest::report
