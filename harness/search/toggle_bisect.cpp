// Toggle bisection: overall A/B, factorial or group-testing attribution, confirmation A/Bs.
#include "harness/search/toggle_bisect.hpp"

#include <algorithm>
#include <cmath>

#include "harness/search/factorial_search.hpp"
#include "harness/search/group_search.hpp"

namespace abtest::search {

namespace {

// The factors are in toggle-id order, so sorting the members by index spells a term's toggles in the
// order of variant keys (A1=4 before A10), which sorting the names would not.
std::vector<std::string> names(const std::vector<factor>& factors, std::vector<int> members) {
  std::sort(members.begin(), members.end());
  std::vector<std::string> out;
  for (int j : members) out.push_back(factors[static_cast<std::size_t>(j)].name);
  return out;
}

// DESIGN §7: to vs to − C must not move in the culprit's direction (measured afresh), and from + C vs
// from must (`added`).
bool confirm(search_session& session, const levels& to, const std::vector<factor>& factors,
             const std::vector<int>& members, double effect, const comparison& added, const ask_options& how) {
  // By the sign of the log ratio, not the verdict's name: for a rate (better higher) a positive
  // effect is FASTER.
  const bool up = effect > 0.0;
  const auto moves_with_effect = [up](const comparison& c) {
    const bool decisive = c.verdict == stats::verdict::slower || c.verdict == stats::verdict::faster;
    return decisive && (c.estimate.estimate > 0.0) == up;
  };
  levels without = to;
  for (int j : members) {
    const factor& f = factors[static_cast<std::size_t>(j)];
    without[f.toggle] = f.low;
  }
  const comparison removed = session.measure(to, without, how);
  return !moves_with_effect(removed) && removed.verdict != stats::verdict::inconclusive && moves_with_effect(added);
}

levels with_members(const levels& from, const std::vector<factor>& factors, const std::vector<int>& members) {
  levels out = from;
  for (int j : members) out[factors[static_cast<std::size_t>(j)].toggle] = factors[static_cast<std::size_t>(j)].high;
  return out;
}

}  // namespace

attribution split_by_direction(const bisect_report& report, stats::better direction) {
  attribution out;
  const int way = stats::log_direction(report.overall.verdict, direction);
  for (const culprit& c : report.culprits) {
    if (!c.confirmed.value_or(true)) out.rejected.push_back(c);
    else if (c.effect * way > 0.0) out.culprits.push_back(c);
    else out.offsets.push_back(c);
  }
  return out;
}

bisect_report bisect_toggles(oracle& o, const std::vector<toggle_spec>& toggles, const levels& from, const levels& to,
                             const search_options& options) {
  search_session session(o, toggles);
  bisect_report report;
  report.from_key = variant_key(toggles, from);
  report.to_key = variant_key(toggles, to);
  const std::vector<factor> factors = differing_factors(toggles, from, to, options.exclude);
  for (const factor& f : differing_factors(toggles, from, to)) {
    if (std::find(options.exclude.begin(), options.exclude.end(), f.toggle) != options.exclude.end()) {
      report.skipped.push_back(f.toggle);
    }
  }
  const int k = static_cast<int>(factors.size());
  report.method = "none";
  if (k == 0) return report;
  levels to_kept = from;  // `to` without the excluded toggles: what the search can explain
  for (const factor& f : factors) to_kept[f.toggle] = f.high;
  ask_options how;
  how.margin = options.search_margin;
  how.alpha = options.alpha;
  report.overall = session.ask(from, to_kept, how);

  int rounds_per_arm = options.matrix_rounds;
  if (k <= options.factorial_limit) {
    factorial_outcome f = factorial_search(session, from, factors, options.matrix_rounds, options.alpha, options.margin);
    report.method = f.plan.kind == "full" ? "factorial full 2^" + std::to_string(k)
                                          : "factorial 2^(" + std::to_string(k) + "-" +
                                                std::to_string(f.plan.generators.size()) + ")";
    for (const std::string& g : f.plan.generators) report.method += " " + g;
    for (const term_effect& e : f.culprits) {
      culprit c{names(factors, e.factors), e.estimate, e.ci_low, e.ci_high, std::nullopt};
      if (options.confirm) {
        const comparison added = session.measure(from, with_members(from, factors, e.factors), how);
        c.confirmed = confirm(session, to_kept, factors, e.factors, e.estimate, added, how);
      }
      report.culprits.push_back(std::move(c));
    }
    for (const std::vector<int>& t : f.screen.not_estimable) report.not_estimable.push_back(names(factors, t));
    report.analysis = std::move(f.screen);
  } else {
    report.method = "group testing";
    // Bonferroni over the comparisons on one search path (2 per halving) keeps the chance that a
    // culprit-free half passes for a culprit small; the always-valid CI makes stopping free.
    const int depth = static_cast<int>(std::ceil(std::log2(static_cast<double>(k))));
    const double alpha = options.alpha / (2.0 * depth);
    const group_outcome g = group_search(session, from, factors, report.overall, options.search_margin, alpha);
    for (const group_culprit& gc : g.culprits) {
      const stats::log_estimate& e = gc.evidence.estimate;
      culprit c{names(factors, gc.factors), e.estimate, e.ci_low, e.ci_high, std::nullopt};
      if (options.confirm) {
        const comparison added = session.measure(from, with_members(from, factors, gc.factors), how);
        c.confirmed = confirm(session, to_kept, factors, gc.factors, e.estimate, added, how);
      }
      report.culprits.push_back(std::move(c));
    }
    for (int j : g.unresolved) report.skipped.push_back(factors[static_cast<std::size_t>(j)].toggle);
    // The matrix at the same measuring effort: rounds per arm of an average comparison.
    rounds_per_arm = session.comparisons() ? (session.rounds() + session.comparisons() - 1) / session.comparisons() : 0;
  }
  report.comparisons = session.comparisons();
  report.runs = session.runs();
  report.full_matrix_runs = (1LL << std::min(k, 40)) * rounds_per_arm;
  return report;
}

}  // namespace abtest::search
