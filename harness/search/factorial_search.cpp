// Factorial attribution: screen, heredity, re-fit, culprits.
#include "harness/search/factorial_search.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace abtest::search {

factorial_outcome attribute(const design& plan, const std::vector<std::vector<double>>& log_values, double alpha,
                            double margin) {
  factorial_outcome out;
  out.plan = plan;
  out.screen = analyze_factorial(plan, log_values);
  // ±1 screen: orthogonal contrasts with equal SEs, so Holm across them controls the family-wise error
  // of the whole attribution (every culprit below must pass this screen first).
  std::set<std::vector<int>> active;
  for (const term_effect& e : out.screen.effects) {
    if (e.p_adjusted < alpha) {
      active.insert(e.factors);
      for (int j : e.factors) active.insert({j});  // heredity: a pair brings its main effects
    }
  }
  if (active.empty()) return out;
  std::vector<std::vector<int>> terms(active.begin(), active.end());
  std::stable_sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  out.refit = fit_terms(plan, log_values, terms);
  const double band = std::log1p(margin);
  for (const term_effect& e : out.refit) {
    if (e.p_adjusted < alpha && std::abs(e.estimate) > band) out.culprits.push_back(e);
  }
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
