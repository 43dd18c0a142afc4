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
                                   int rounds, double alpha, double margin) {
  const int k = static_cast<int>(factors.size());
  const design plan = k <= 4 ? full_factorial(k) : fractional_factorial(k);
  std::vector<levels> configs;
  for (const std::vector<int>& run : plan.runs) configs.push_back(apply(from, factors, run));
  const matrix_result m = session.run_matrix(configs, rounds);
  return attribute(plan, m.log_values, alpha, margin);
}

}  // namespace abtest::search
