// Factorial attribution: screen, heredity, re-fit, culprits.
#include "harness/search/factorial_search.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "harness/stats/t_interval.hpp"

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

namespace {

// Where the all-0 and the all-1 runs are in the design, or -1.
int run_index(const design& plan, int level) {
  for (std::size_t r = 0; r < plan.runs.size(); ++r)
    if (std::all_of(plan.runs[r].begin(), plan.runs[r].end(), [level](int x) { return x == level; }))
      return static_cast<int>(r);
  return -1;
}

// The corners' paired differences, with the matrix residual's σ̂ on its df as their noise: a fixed
// number of rounds, looked at once, so the t interval is the right one (no sequence needed).
stats::log_estimate corners(const std::vector<std::vector<double>>& y, std::size_t low, std::size_t high,
                            const factorial_analysis& screen, double alpha) {
  stats::log_estimate e;
  double sum = 0.0;
  for (std::size_t r = 0; r < y[low].size() && r < y[high].size(); ++r) {
    const double d = y[high][r] - y[low][r];
    if (std::isfinite(d)) sum += d, ++e.n;
  }
  if (e.n == 0 || !(std::isfinite(screen.sigma) && screen.df >= 1.0)) {
    e.n = 0;
    return e;
  }
  e.estimate = sum / e.n;
  e.df = screen.df;
  e.spread = std::sqrt(2.0) * screen.sigma;
  stats::set_t_interval(e, e.spread / std::sqrt(static_cast<double>(e.n)), 1.0 - alpha);
  return e;
}

}  // namespace

factorial_outcome factorial_search(search_session& session, const levels& from, const std::vector<factor>& factors,
                                   const design& plan, int pilot_rounds, const round_sizer& size, double alpha,
                                   double margin) {
  std::vector<levels> configs;
  for (const std::vector<int>& run : plan.runs) configs.push_back(apply(from, factors, run));
  int low = run_index(plan, 0), high = run_index(plan, 1);
  const std::vector<int> all_high(factors.size(), 1);
  if (low < 0) low = static_cast<int>(configs.size()), configs.push_back(from);
  if (high < 0) high = static_cast<int>(configs.size()), configs.push_back(apply(from, factors, all_high));

  matrix_result m = session.run_matrix(configs, pilot_rounds);
  const auto design_rows = [&] {
    return std::vector<std::vector<double>>(m.log_values.begin(), m.log_values.begin() + static_cast<long>(plan.runs.size()));
  };
  if (size) {
    const factorial_analysis pilot = analyze_factorial(plan, design_rows());
    const int want = size(pilot.sigma, pilot.df);
    if (want > pilot_rounds) {
      const matrix_result more = session.run_matrix(configs, want - pilot_rounds);
      for (std::size_t c = 0; c < configs.size(); ++c)
        m.log_values[c].insert(m.log_values[c].end(), more.log_values[c].begin(), more.log_values[c].end());
    }
  }
  factorial_outcome out = attribute(plan, design_rows(), alpha, margin);
  out.rounds = m.log_values.empty() ? 0 : static_cast<int>(m.log_values.front().size());
  out.overall = corners(m.log_values, static_cast<std::size_t>(low), static_cast<std::size_t>(high), out.screen, alpha);
  return out;
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
