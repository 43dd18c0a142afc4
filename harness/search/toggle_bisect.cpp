// Toggle bisection: overall A/B, factorial or group-testing attribution, confirmation A/Bs.
#include "harness/search/toggle_bisect.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "harness/search/factorial_search.hpp"
#include "harness/search/group_search.hpp"
#include "harness/search/pooled_fit.hpp"
#include "harness/stats/power.hpp"

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

// The rounds a confirmation A/B runs at least when the matrix's noise is known: two paired
// differences give an interval; the third keeps one wild round from deciding alone.
constexpr int confirm_min_rounds = 3;

// The variance of one A/B difference (ln V − ln B in one round, 2σ²) from the matrix's residual σ̂ on
// its df, at the 95% upper confidence bound (χ²), so that a low draw does not make the confirmations
// overconfident; NaN without a residual.
double known_difference_variance(const factorial_analysis& screen) {
  if (!(std::isfinite(screen.sigma) && screen.sigma > 0.0 && screen.df >= 1.0)) return std::numeric_limits<double>::quiet_NaN();
  return 2.0 * stats::variance_upper_bound(screen.sigma * screen.sigma, screen.df, 0.95);
}

// design §7: to vs to − C must not move in the culprit's direction (measured afresh), and from + C vs
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
  // "Not in the culprit's direction" is settled once the CI rules out a material move that way
  // (equivalence on that side): no need to tell SAME from the opposite up to the round cap.
  ask_options one_sided = how;
  one_sided.settle_side = up ? 1 : -1;
  one_sided.settled = [&](const comparison& c) {
    return c.verdict != stats::verdict::inconclusive || settled_on_side(c.estimate, one_sided.settle_side, how.margin);
  };
  const comparison removed = session.measure(to, without, one_sided);
  return !moves_with_effect(removed) && one_sided.settled(removed) && moves_with_effect(added);
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

std::pair<double, double> binding_term(const std::vector<culprit>& terms, double fallback,
                                       const std::map<std::vector<std::string>, double>& se_factor_of) {
  double h = std::numeric_limits<double>::infinity(), c = 2.0;
  for (const culprit& t : terms) {
    const double width = (t.ci_high - t.ci_low) / 2.0;
    if (!t.confirmed.value_or(true) || !std::isfinite(width) || width <= 0.0) continue;
    const auto it = se_factor_of.find(t.toggles);
    const double factor = it != se_factor_of.end() ? it->second : 2.0;
    if (!std::isfinite(h) || factor / width > c / h) h = width, c = factor;
  }
  return std::isfinite(h) ? std::pair{h, c} : std::pair{fallback, 2.0};
}

namespace {

// A pair holds up by strong heredity — both of its toggles supported main effects of their own — else
// by its four cells: the interaction contrast decisive in the screen's direction, measured until its
// confidence sequence decides (SAME inside ±search_margin ends it too, as not holding up), at most
// 40 rounds. One parent is not enough: beside a true culprit, a chance pair with a bystander would
// ride on it (the masking scenario showed 4 in 100).
void confirm_pair(search_session& session, const levels& from, const std::vector<factor>& factors, culprit& c,
                  const std::vector<int>& members, const std::vector<culprit>& mains, const search_options& options,
                  const ask_options& after_matrix) {
  const auto supported = [&](const std::string& name) {
    return std::any_of(mains.begin(), mains.end(), [&](const culprit& m) {
      return m.confirmed.value_or(false) && m.toggles == std::vector<std::string>{name};
    });
  };
  if (std::all_of(c.toggles.begin(), c.toggles.end(), supported)) {
    c.confirmed = true;
    c.support = "heredity";
    return;
  }
  stats::sequential_options o;
  o.alpha = options.alpha;
  o.margin = options.search_margin;
  o.max_rounds = 40;
  // The mixture's scale at the size the screen saw (its contrast has sd 2σ, twice an A/B's): a
  // confidence sequence tuned to the effect it checks decides sooner (Johari et al. 2017, §4).
  o.tau = std::max(o.tau, std::abs(c.effect));
  // After a matrix its noise is known: the contrast y₁₁ − y₁₀ − y₀₁ + y₀₀ has twice an A/B
  // difference's variance, and it starts from the confirmations' rounds.
  if (std::isfinite(after_matrix.known_variance)) {
    o.known_variance = 2.0 * after_matrix.known_variance;
    o.min_rounds = after_matrix.min_rounds;
  }
  stats::log_estimate e;
  four_cells(session, from, factors, members[0], members[1], o, e);
  c.confirmed = e.has_ci && (c.effect > 0.0 ? e.ci_low > 0.0 : e.ci_high < 0.0);
  c.support = "four cells";
}

// The narrowest 95% CI half-width among the main effects of a table; +∞ when none has one.
double narrowest_main(const std::vector<term_effect>& table) {
  double h = std::numeric_limits<double>::infinity();
  for (const term_effect& e : table)
    if (e.factors.size() == 1 && std::isfinite(e.ci_high - e.ci_low)) h = std::min(h, (e.ci_high - e.ci_low) / 2.0);
  return h;
}

}  // namespace

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

  // The noise measured so far, where the overall A/B measured it: its 80% upper confidence bound
  // (χ² on the A/B's degrees of freedom), so that a low draw of a few rounds does not leave the
  // matrix short of power.
  unit_costs costs = options.costs;
  if (const double s = session.pooled_sigma(); std::isfinite(s) && s > 0.0) {
    const double df = session.pooled_df();
    costs.sigma = std::sqrt(stats::variance_upper_bound(s * s, df, 0.8));
  }
  plan_options po;
  po.design = options.design;
  po.margin = options.search_margin;
  po.alpha = options.alpha;
  po.matrix_rounds = options.matrix_rounds;
  report.plan = plan_search(k, costs, po);
  const priced_design& chosen = report.plan.chosen;

  std::vector<std::pair<culprit, std::vector<int>>> found;  // each term with its factor indices
  double fallback_width = report.overall.estimate.has_ci ? (report.overall.estimate.ci_high - report.overall.estimate.ci_low) / 2.0
                                                         : std::numeric_limits<double>::infinity();
  int rounds_per_arm = chosen.rounds;
  std::map<std::vector<std::string>, double> se_factor_of;  // a matrix term's SE·√N/σ̂, by its toggles
  ask_options confirm_how = how;  // the confirmations' A/Bs: after a matrix, with its noise
  std::vector<std::vector<int>> model;  // the terms of the pooled fit: the matrix's re-fitted ones
  if (chosen.design != design_choice::group) {
    const design plan = chosen.design == design_choice::full ? full_factorial(k) : fractional_factorial(k);
    // Sized for a 2% effect at 90% power, the matrix stops sooner once every term is decided (fixed
    // --rounds run as they are).
    const double stop_margin = options.matrix_rounds > 0 ? 0.0 : options.search_margin;
    factorial_outcome f =
        factorial_search(session, from, factors, plan, chosen.rounds, options.alpha, options.margin, stop_margin);
    rounds_per_arm = f.rounds;
    report.method = f.plan.kind == "full" ? "factorial full 2^" + std::to_string(k)
                                          : "factorial 2^(" + std::to_string(k) + "-" +
                                                std::to_string(f.plan.generators.size()) + ")";
    for (const std::string& g : f.plan.generators) report.method += " " + g;
    const double runs_fitted = static_cast<double>(f.screen.configs) * f.screen.rounds;
    for (const term_effect& e : f.culprits) {
      found.push_back({{names(factors, e.factors), e.estimate, e.ci_low, e.ci_high, std::nullopt, ""}, e.factors});
      if (f.screen.sigma > 0.0) se_factor_of[names(factors, e.factors)] = e.se * std::sqrt(runs_fitted) / f.screen.sigma;
    }
    for (const std::vector<int>& t : f.screen.not_estimable) report.not_estimable.push_back(names(factors, t));
    if (std::isfinite(f.screen.sigma) && f.screen.sigma > 0.0) costs.sigma = f.screen.sigma;
    confirm_how.known_variance = known_difference_variance(f.screen);
    if (std::isfinite(confirm_how.known_variance)) confirm_how.min_rounds = confirm_min_rounds;
    fallback_width = std::min(fallback_width, narrowest_main(f.screen.effects));
    for (const term_effect& e : f.refit) model.push_back(e.factors);
    if (model.empty())
      for (int j = 0; j < k; ++j) model.push_back({j});
    report.analysis = std::move(f.screen);
  } else {
    report.method = "group testing";
    // Bonferroni over the comparisons on one search path (2 per halving) keeps the chance that a
    // culprit-free half passes for a culprit small; the always-valid CI makes stopping free.
    const int depth = static_cast<int>(std::ceil(std::log2(static_cast<double>(k))));
    const double alpha = options.alpha / (2.0 * std::max(1, depth));
    const group_outcome g = group_search(session, from, factors, report.overall, options.search_margin, alpha);
    for (const group_culprit& gc : g.culprits) {
      const stats::log_estimate& e = gc.evidence.estimate;
      found.push_back({{names(factors, gc.factors), e.estimate, e.ci_low, e.ci_high, std::nullopt, ""}, gc.factors});
    }
    for (int j : g.unresolved) report.skipped.push_back(factors[static_cast<std::size_t>(j)].toggle);
    if (const double s = session.pooled_sigma(); std::isfinite(s) && s > 0.0) costs.sigma = s;
    // The matrix at the same measuring effort: rounds per arm of an average comparison.
    rounds_per_arm = session.comparisons() ? (session.rounds() + session.comparisons() - 1) / session.comparisons() : 0;
  }
  // Main effects (and sets the A/Bs can test) first, so that a pair can lean on a parent (heredity).
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
  for (auto& [c, members] : found) {
    if (options.confirm && members.size() == 2) {
      confirm_pair(session, from, factors, c, members, report.culprits, options, confirm_how);
    } else if (options.confirm) {
      // The mixture at the scale of the effect it checks decides sooner (Johari et al. 2017, §4).
      ask_options for_this = confirm_how;
      if (std::isfinite(for_this.known_variance)) for_this.tau = std::max(stats::sequential_options{}.tau, std::abs(c.effect));
      const comparison added = session.measure(from, with_members(from, factors, members), for_this);
      c.confirmed = confirm(session, to_kept, factors, members, c.effect, added, for_this);
      c.support = "A/Bs";
    }
    report.culprits.push_back(std::move(c));
  }
  // What is reported comes from every run the search made: the matrix, the overall A/B and the
  // confirmations, in one fit (pooled_fit.hpp) — the decisions above stay with the evidence each
  // step was entitled to (the confirmations' own fresh runs).
  if (const pooled_fit pooled = fit_every_run(session, factors, model); !pooled.terms.empty()) {
    for (std::size_t i = 0; i < found.size(); ++i) {
      std::vector<int> members = found[i].second;
      std::sort(members.begin(), members.end());
      for (const term_effect& t : pooled.terms)
        if (t.factors == members) {
          culprit& c = report.culprits[i];
          c.effect = t.estimate;
          c.ci_low = t.ci_low;
          c.ci_high = t.ci_high;
        }
    }
    costs.sigma = pooled.sigma;
    if (report.culprits.empty()) fallback_width = narrowest_main(pooled.terms);
  }
  report.comparisons = session.comparisons();
  report.runs = session.runs();
  report.builds = session.builds();
  report.used = priced(report.builds, report.runs, costs);
  report.sigma = costs.sigma;
  std::tie(report.half_width, report.se_factor) = binding_term(report.culprits, fallback_width, se_factor_of);
  report.full_factorial = full_factorial_at(k, report.half_width, costs, 2, report.se_factor);
  report.full_matrix_runs = (1LL << std::min(k, 40)) * rounds_per_arm;
  return report;
}

}  // namespace abtest::search
