// Factorial attribution: screen, heredity, re-fit, culprits.
#include "harness/search/factorial_search.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <boost/math/distributions/normal.hpp>
#include <limits>

#include "harness/stats/power.hpp"

namespace abtest::search {

std::vector<std::vector<int>> active_terms(const std::vector<term_effect>& screen, double alpha) {
  std::set<std::vector<int>> active;
  for (const term_effect& e : screen) {
    if (e.p_adjusted < alpha) {
      active.insert(e.factors);
      for (int j : e.factors) active.insert({j});  // heredity: a pair brings its main effects
    }
  }
  std::vector<std::vector<int>> terms(active.begin(), active.end());
  std::stable_sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  return terms;
}

std::vector<term_effect> culprits_among(const std::vector<term_effect>& refit, double alpha, double margin) {
  const double band = std::log1p(margin);
  std::vector<term_effect> out;
  for (const term_effect& e : refit)
    if (e.p_adjusted < alpha && std::abs(e.estimate) > band) out.push_back(e);
  return out;
}

factorial_outcome attribute(const design& plan, const std::vector<std::vector<double>>& log_values, double alpha,
                            double margin) {
  factorial_outcome out;
  out.plan = plan;
  out.screen = analyze_factorial(plan, log_values);
  // ±1 screen: orthogonal contrasts with equal SEs, so Holm across them controls the family-wise error
  // of the whole attribution (every culprit below must pass this screen first).
  const std::vector<std::vector<int>> terms = active_terms(out.screen.effects, alpha);
  if (terms.empty()) return out;
  out.refit = fit_terms(plan, log_values, terms);
  out.culprits = culprits_among(out.refit, alpha, margin);
  return out;
}

factorial_outcome factorial_search(search_session& session, const levels& from, const std::vector<factor>& factors,
                                   const design& plan, int rounds, double alpha, double margin, double stop_margin,
                                   const batch_listener& on_batch) {
  std::vector<levels> configs;
  for (const std::vector<int>& run : plan.runs) configs.push_back(apply(from, factors, run));
  const bool sequential = stop_margin > 0.0;
  int done = sequential ? std::min(rounds, 3) : rounds;
  matrix_result m = session.run_matrix(configs, done);
  // Columns that are not rounds (an oracle that answers in layouts) take no more.
  const auto columns_are = [](const matrix_result& r, int n) {
    return !r.log_values.empty() && r.log_values.front().size() == static_cast<std::size_t>(n);
  };
  int most = rounds;
  while (sequential && done < most && columns_are(m, done) && !session.out_of_time()) {
    const factorial_analysis screen = analyze_factorial(plan, m.log_values);
    if (matrix_decided(screen, alpha, stop_margin)) break;
    // The plan sized the matrix with one σ, the overall A/B's; where the configurations' noise
    // differs (weighted fit), its power is re-computed from the terms' own SEs, up to 100 rounds.
    if (screen.dispersion.active())
      most = std::min(rounds_to_find(screen, alpha, stop_margin, 0.9), std::max(rounds, max_matrix_rounds));
    if (on_batch) on_batch(screen, done, most);
    if (done >= most) break;
    const int batch = std::min(done, most - done);  // doubling: few calls, each with its warm-ups
    const matrix_result more = session.run_matrix(configs, batch);
    if (more.log_values.size() != m.log_values.size() || !columns_are(more, batch)) break;
    for (std::size_t c = 0; c < configs.size(); ++c)
      m.log_values[c].insert(m.log_values[c].end(), more.log_values[c].begin(), more.log_values[c].end());
    done += batch;
  }
  factorial_outcome out = attribute(plan, m.log_values, alpha, margin);
  out.rounds = done;
  return out;
}

double always_valid_half_width(const term_effect& e, int rounds, double df, double alpha, double tau) {
  if (!(e.se > 0.0) || rounds < 2 || !(df >= 1.0)) return std::numeric_limits<double>::infinity();
  // One round's contribution to the term has variance SE²·rounds: 4σ²/configs for a ±1 term with one σ.
  const double per_round = stats::variance_upper_bound(e.se * e.se * rounds, df, 0.95);
  return stats::msprt_half_width(rounds, per_round, tau, alpha);
}

bool matrix_decided(const factorial_analysis& screen, double alpha, double stop_margin) {
  if (screen.effects.empty() || screen.rounds < 2 || !(screen.df >= 1.0 && std::isfinite(screen.sigma))) return false;
  const double a = alpha / static_cast<double>(screen.effects.size());
  const double band = std::log1p(stop_margin);
  for (const term_effect& e : screen.effects) {
    const double h = always_valid_half_width(e, screen.rounds, screen.df, a, band);
    const bool active = std::abs(e.estimate) > h;
    const bool inactive = std::abs(e.estimate) + h < band;
    if (!active && !inactive) return false;
  }
  return true;
}

int rounds_to_find(const factorial_analysis& screen, double alpha, double margin, double power) {
  if (screen.effects.empty() || screen.rounds < 1) return 0;
  const boost::math::normal norm;
  const double a = alpha / static_cast<double>(screen.effects.size());
  const double z = boost::math::quantile(norm, 1.0 - a / 2.0) + boost::math::quantile(norm, power);
  double worst = 0.0;
  for (const term_effect& e : screen.effects)
    if (std::isfinite(e.se)) worst = std::max(worst, e.se * e.se * screen.rounds);
  return static_cast<int>(std::ceil(z * z * worst / std::pow(std::log1p(margin), 2.0)));
}

stats::verdict_result four_cells(search_session& session, const levels& from, const std::vector<factor>& factors, int i,
                                 int j, const stats::sequential_options& o, stats::log_estimate& estimate) {
  const design cells = full_factorial(2);  // Yates order: 0, i, j, both
  const std::vector<factor> pair{factors[static_cast<std::size_t>(i)], factors[static_cast<std::size_t>(j)]};
  std::vector<levels> configs;
  for (const std::vector<int>& run : cells.runs) configs.push_back(apply(from, pair, run));
  stats::adaptive_monitor monitor(o);
  int spent = 0;
  while (!monitor.should_stop() && spent < o.max_rounds) {
    const int batch = std::min(spent == 0 ? std::max(o.min_rounds, 2) : 5, o.max_rounds - spent);
    const matrix_result m = session.run_matrix(configs, batch);
    spent += batch;
    for (int r = 0; r < batch && !monitor.should_stop(); ++r) {
      const auto y = [&](int c) { return m.log_values[static_cast<std::size_t>(c)][static_cast<std::size_t>(r)]; };
      const double d = y(3) - y(1) - y(2) + y(0);
      if (std::isfinite(d)) monitor.add(d);
    }
  }
  estimate = monitor.current();
  return monitor.current_verdict();
}

}  // namespace abtest::search
