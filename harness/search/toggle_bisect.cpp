// Toggle bisection: overall A/B, factorial or group-testing attribution, confirmation A/Bs.
#include "harness/search/toggle_bisect.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>

#include "harness/search/confirmations.hpp"
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

// The narrowest 95% CI half-width among the main effects of a table; +∞ when none has one.
double narrowest_main(const std::vector<term_effect>& table) {
  double h = std::numeric_limits<double>::infinity();
  for (const term_effect& e : table)
    if (e.factors.size() == 1 && std::isfinite(e.ci_high - e.ci_low)) h = std::min(h, (e.ci_high - e.ci_low) / 2.0);
  return h;
}

// Terms of a screen whose always-valid interval (factorial_search.hpp, at α / terms) is clear of
// ±ln(1 + margin): decided by the matrix, named with the ratio of their ±1 effect ("DFA 19.30×"),
// for the step lines.
std::vector<std::string> decided_terms(const factorial_analysis& screen, const std::vector<factor>& factors, double alpha,
                                       double margin) {
  std::vector<std::string> out;
  const double band = std::log1p(margin);
  const double a = alpha / static_cast<double>(std::max<std::size_t>(screen.effects.size(), 1));
  for (const term_effect& e : screen.effects) {
    const double h = always_valid_half_width(e, screen.rounds, screen.df, a, band);
    if (std::abs(e.estimate) - h > band) {
      std::vector<std::string> n = names(factors, e.factors);
      std::string term = n.front();
      for (std::size_t i = 1; i < n.size(); ++i) term += "*" + n[i];
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, " %.2f×", std::exp(e.estimate));
      out.push_back(term + ratio);
    }
  }
  return out;
}

}  // namespace

namespace {

// One toggle bisection, in the steps bisect_toggles takes: the overall A/B and the plan, the screen
// (a factorial matrix or group testing), the confirmations, the fit of every run, the bill. What
// one step hands the next is kept here.
struct toggle_bisection {
  const search_options& options;
  search_session session;
  const levels& from;
  const std::vector<factor> factors;
  const int k;
  levels to_kept;  // `to` without the excluded toggles: what the search can explain
  ask_options how;
  unit_costs costs;
  bisect_report report;
  std::vector<std::pair<culprit, std::vector<int>>> found;  // each term with its factor indices
  double fallback_width = std::numeric_limits<double>::infinity();
  int rounds_per_arm = 0;
  std::map<std::vector<std::string>, double> se_factor_of;  // a matrix term's SE·√N/σ̂, by its toggles
  matrix_noise noise;  // after a matrix: its noise, which the confirmations' A/Bs carry
  int min_rounds = 0;
  std::vector<std::vector<int>> model;  // the terms of the pooled fit: the matrix's re-fitted ones
  std::vector<std::string> decided;     // what the step lines call decided so far

  toggle_bisection(oracle& o, const std::vector<toggle_spec>& toggles, const levels& from_, const levels& to,
                   const search_options& options_)
      : options(options_),
        session(o, toggles),
        from(from_),
        factors(differing_factors(toggles, from_, to, options_.exclude)),
        k(static_cast<int>(factors.size())),
        to_kept(from_) {
    if (options.stop) session.set_stop(options.stop);
    report.from_key = variant_key(toggles, from);
    report.to_key = variant_key(toggles, to);
    for (const factor& f : differing_factors(toggles, from, to))
      if (std::find(options.exclude.begin(), options.exclude.end(), f.toggle) != options.exclude.end())
        report.skipped.push_back(f.toggle);
    report.method = "none";
    for (const factor& f : factors) to_kept[f.toggle] = f.high;
    noise.factors = &factors;
  }

  // The overall A/B, then the design priced with the noise it measured: its 80% upper confidence
  // bound (χ² on the A/B's degrees of freedom), so that a low draw of a few rounds does not leave
  // the matrix short of power.
  void measure_overall_and_plan() {
    how.margin = options.search_margin;
    how.alpha = options.alpha;
    report.overall = session.ask(from, to_kept, how);
    costs = options.costs;
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
    const stats::log_estimate& overall = report.overall.estimate;
    if (overall.has_ci) fallback_width = (overall.ci_high - overall.ci_low) / 2.0;
    rounds_per_arm = report.plan.chosen.rounds;
  }

  // The factorial screen (full or half fraction); false when it was stopped before it had one
  // complete round to fit (Ctrl-C inside its first rounds).
  bool screen_by_matrix() {
    const priced_design& chosen = report.plan.chosen;
    const design plan = chosen.design == design_choice::full ? full_factorial(k) : fractional_factorial(k);
    std::vector<levels> configs;
    for (const std::vector<int>& run : plan.runs) configs.push_back(apply(from, factors, run));
    // Sized for a 2% effect at 90% power, the matrix stops sooner once every term is decided (fixed
    // --rounds run as they are).
    const double stop_margin = options.matrix_rounds > 0 ? 0.0 : options.search_margin;
    // The sequential design's worst case: a matrix whose noise differs per configuration may grow to
    // max_matrix_rounds (factorial_search.hpp), so that is its most until it is done; before it, each
    // configuration at the slowest end's seconds.
    const int worst_rounds = stop_margin > 0.0 ? std::max(chosen.rounds, max_matrix_rounds) : chosen.rounds;
    session.tell({{}, worst_rounds * round_s(session, configs)});
    const batch_listener on_batch = [&](const factorial_analysis& screen, int done, int) {
      decided = decided_terms(screen, factors, options.alpha, options.margin);
      session.tell({decided, (worst_rounds - done) * round_s(session, configs)});
    };
    factorial_outcome f;
    try {
      f = factorial_search(session, from, factors, plan, chosen.rounds, options.alpha, options.margin, stop_margin, on_batch);
    } catch (const std::invalid_argument&) {
      if (!session.out_of_time()) throw;  // an error, as before, unless the search was stopped
      report.stopped = true;
      return false;
    }
    report.stopped = session.out_of_time();
    rounds_per_arm = f.rounds;
    report.method = f.plan.kind == "full" ? "factorial full 2^" + std::to_string(k)
                                          : "factorial 2^(" + std::to_string(k) + "-" +
                                                std::to_string(f.plan.generators.size()) + ")";
    for (const std::string& g : f.plan.generators) report.method += " " + g;
    take_matrix_terms(f);
    return true;
  }

  // The matrix's culprit candidates, and what the confirmations and the pooled fit take from it.
  void take_matrix_terms(factorial_outcome& f) {
    const double runs_fitted = static_cast<double>(f.screen.configs) * f.screen.rounds;
    // A term the matrix decided — its always-valid interval (at α over the re-fitted terms) clear of
    // the margin — is not measured again: the confirmations are for what it could not separate. In a
    // fraction a pair is aliased with a three-factor interaction, so there only main effects are.
    const double band = std::log1p(options.margin);
    const double per_term = options.alpha / static_cast<double>(std::max<std::size_t>(f.refit.size(), 1));
    for (const term_effect& e : f.culprits) {
      culprit c{names(factors, e.factors), e.estimate, e.ci_low, e.ci_high, std::nullopt, ""};
      const double h = always_valid_half_width(e, f.screen.rounds, f.screen.df, per_term, band);
      if ((f.plan.kind == "full" || e.factors.size() == 1) && std::abs(e.estimate) - h > band) {
        c.confirmed = true;
        c.support = "matrix";
      }
      found.push_back({c, e.factors});
      if (f.screen.sigma > 0.0) se_factor_of[names(factors, e.factors)] = e.se * std::sqrt(runs_fitted) / f.screen.sigma;
    }
    for (const std::vector<int>& t : f.screen.not_estimable) report.not_estimable.push_back(names(factors, t));
    if (std::isfinite(f.screen.sigma) && f.screen.sigma > 0.0) costs.sigma = f.screen.sigma;
    noise = noise_of(f.screen, factors);
    if (std::isfinite(noise.upper)) min_rounds = confirm_min_rounds;
    fallback_width = std::min(fallback_width, narrowest_main(f.screen.effects));
    for (const term_effect& e : f.refit) model.push_back(e.factors);
    if (model.empty() || report.stopped)  // stopped: every main effect, so that each can be called undecided
      for (int j = 0; j < k; ++j)
        if (std::find(model.begin(), model.end(), std::vector<int>{j}) == model.end()) model.push_back({j});
    report.analysis = std::move(f.screen);
  }

  void screen_by_groups() {
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

  // The options of a confirmation's A/B of a against b: after a matrix, the difference's variance
  // as it measured the two, and the mixture at the scale of the effect it checks, which decides
  // sooner (Johari et al. 2017, §4).
  std::function<ask_options(const levels&, const levels&)> confirm_how(double effect) const {
    return [this, effect](const levels& a, const levels& b) {
      ask_options h = how;
      h.known_variance = noise.of({a, b});
      if (std::isfinite(h.known_variance)) {
        h.min_rounds = min_rounds;
        h.tau = std::max(stats::sequential_options{}.tau, std::abs(effect));
      }
      return h;
    };
  }

  // The configuration with `members` at `level` (1: to's), the others at `base` (0: from's).
  levels with_members(const std::vector<int>& members, int base, int level) const {
    std::vector<int> z(static_cast<std::size_t>(k), base);
    for (int j : members) z[static_cast<std::size_t>(j)] = level;
    return apply(from, factors, z);
  }

  // A pair's four cells: from, from + i, from + j, from + both.
  std::vector<levels> cells_of(const std::vector<int>& members) const {
    return {from, with_members({members[0]}, 0, 1), with_members({members[1]}, 0, 1), with_members(members, 0, 1)};
  }

  // The worst case of what is left to confirm from `found[next]` on, in seconds at the
  // configurations it runs.
  double confirmations_left_s(std::size_t next) {
    double s = 0.0;
    for (std::size_t i = next; i < found.size(); ++i) {
      const std::vector<int>& members = found[i].second;
      if (found[i].first.confirmed || !options.confirm) continue;
      s += members.size() == 2 ? four_cells_worst_rounds * round_s(session, cells_of(members))
                               : confirmation_worst_rounds * (round_s(session, {from, with_members(members, 0, 1)}) +
                                                              round_s(session, {to_kept, with_members(members, 1, 0)}));
    }
    return s;
  }

  // Each candidate the screen did not decide is confirmed (design §7), main effects first so that a
  // pair can lean on a parent (heredity); once stopped, the rest are undecided.
  void confirm_found() {
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    for (std::size_t i = 0; i < found.size(); ++i) {
      auto& [c, members] = found[i];
      if (!c.confirmed && options.confirm && session.out_of_time()) {
        report.stopped = true;
        c.support = "undecided";
        report.undecided.push_back(std::move(c));
        continue;
      }
      if (!c.confirmed && options.confirm) {
        session.tell({decided, confirmations_left_s(i)});
        if (members.size() == 2) {
          confirm_pair(session, from, factors, c, members, report.culprits, options, noise.of(cells_of(members)), min_rounds);
        } else {
          c.confirmed = confirm_main(session, from, to_kept, factors, members, c.effect, confirm_how(c.effect));
          c.support = "A/Bs";
        }
      }
      if (c.confirmed.value_or(false)) note_decided(c);
      report.culprits.push_back(std::move(c));
    }
  }

  // A confirmed term joins the step lines' "decided" ("A1*B1 1.30×") unless the matrix named it.
  void note_decided(const culprit& c) {
    std::string term = c.toggles.front();
    for (std::size_t t = 1; t < c.toggles.size(); ++t) term += "*" + c.toggles[t];
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, " %.2f×", std::exp(c.effect));
    if (std::none_of(decided.begin(), decided.end(), [&](const std::string& d) { return d.rfind(term + " ", 0) == 0; }))
      decided.push_back(term + ratio);
  }

  // What is reported comes from every run the search made: the matrix, the overall A/B and the
  // confirmations, in one fit (pooled_fit.hpp), each run weighed by its configuration's noise — the
  // decisions above stay with the evidence each step was entitled to (the confirmations' own fresh
  // runs).
  void pool_every_run() {
    const auto relative_variance = [&](const levels& l) { return noise.dispersion.relative_variance(noise.run_of(l)); };
    const pooled_fit pooled = fit_every_run(session, factors, model, 0.95, relative_variance);
    if (pooled.terms.empty()) return;
    const double band = std::log1p(options.margin);
    for (const term_effect& t : pooled.terms) {
      const std::vector<std::string> term = names(factors, t.factors);
      bool listed = false;
      for (auto* list : {&report.culprits, &report.undecided})
        for (culprit& c : *list)
          if (c.toggles == term) {
            c.effect = t.estimate;
            c.ci_low = t.ci_low;
            c.ci_high = t.ci_high;
            listed = true;
          }
      // Stopped: a term the search had not decided either way is said to be undecided, with what
      // every run says of it.
      if (report.stopped && !listed && !(t.ci_low > -band && t.ci_high < band))
        report.undecided.push_back({term, t.estimate, t.ci_low, t.ci_high, std::nullopt, "undecided"});
    }
    costs.sigma = pooled.sigma;
    if (report.culprits.empty()) fallback_width = narrowest_main(pooled.terms);
  }

  // What the search spent: comparisons, runs, builds, their seconds and price.
  void count_spent() {
    report.comparisons = session.comparisons();
    report.runs = session.runs();
    report.builds = session.builds();
    report.run_seconds = session.seconds();
    report.used = priced(report.builds, report.runs, costs);
  }

  // The spending beside the full factorial that reaches the same precision (binding_term).
  void settle_bill() {
    count_spent();
    report.sigma = costs.sigma;
    std::tie(report.half_width, report.se_factor) = binding_term(report.culprits, fallback_width, se_factor_of);
    report.full_factorial = full_factorial_at(k, report.half_width, costs, 2, report.se_factor);
    report.full_matrix_runs = (1LL << std::min(k, 40)) * rounds_per_arm;
  }
};

}  // namespace

bisect_report bisect_toggles(oracle& o, const std::vector<toggle_spec>& toggles, const levels& from, const levels& to,
                             const search_options& options) {
  toggle_bisection b(o, toggles, from, to, options);
  if (b.k == 0) return std::move(b.report);
  b.measure_overall_and_plan();
  if (b.session.out_of_time()) {
    b.report.stopped = true;
  } else if (b.report.plan.chosen.design != design_choice::group) {
    if (!b.screen_by_matrix()) {  // stopped before the matrix said anything: what was spent, no more
      b.count_spent();
      return std::move(b.report);
    }
  } else {
    b.screen_by_groups();
  }
  b.confirm_found();
  b.pool_every_run();
  b.settle_bill();
  return std::move(b.report);
}

}  // namespace abtest::search
