// Factorial attribution: screen, heredity, re-fit, culprits.
#include "harness/search/factorial_search.hpp"

#include <algorithm>
#include <cmath>
#include <set>

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
                                   const design& plan, int rounds, double alpha, double margin, double stop_margin) {
  std::vector<levels> configs;
  for (const std::vector<int>& run : plan.runs) configs.push_back(apply(from, factors, run));
  const bool sequential = stop_margin > 0.0;
  int done = sequential ? std::min(rounds, 3) : rounds;
  matrix_result m = session.run_matrix(configs, done);
  // Columns that are not rounds (an oracle that answers in layouts) take no more.
  const auto columns_are = [](const matrix_result& r, int n) {
    return !r.log_values.empty() && r.log_values.front().size() == static_cast<std::size_t>(n);
  };
  while (sequential && done < rounds && columns_are(m, done) &&
         !matrix_decided(analyze_factorial(plan, m.log_values), alpha, stop_margin)) {
    const int batch = std::min(done, rounds - done);  // doubling: few calls, each with its warm-ups
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

bool matrix_decided(const factorial_analysis& screen, double alpha, double stop_margin) {
  if (screen.effects.empty() || screen.rounds < 2 || !(screen.df >= 1.0 && std::isfinite(screen.sigma))) return false;
  const double upper = stats::variance_upper_bound(screen.sigma * screen.sigma, screen.df, 0.95);
  const double per_round = 4.0 * upper / screen.configs;  // one round's ±1 contrast (2/C)Σ x y: variance 4σ²/C
  const double a = alpha / static_cast<double>(screen.effects.size());
  const double band = std::log1p(stop_margin);
  for (const term_effect& e : screen.effects) {
    const double h = stats::msprt_half_width(screen.rounds, per_round, band, a);
    const bool active = std::abs(e.estimate) > h;
    const bool inactive = std::abs(e.estimate) + h < band;
    if (!active && !inactive) return false;
  }
  return true;
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
