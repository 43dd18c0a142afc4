// Factorial attribution: screen, heredity, re-fit, culprits.
#include "harness/search/factorial_search.hpp"

#include <algorithm>
#include <cmath>
#include <set>

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
                                   const design& plan, int rounds, double alpha, double margin) {
  std::vector<levels> configs;
  for (const std::vector<int>& run : plan.runs) configs.push_back(apply(from, factors, run));
  const matrix_result m = session.run_matrix(configs, rounds);
  return attribute(plan, m.log_values, alpha, margin);
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
