// Factorial effects (±1 coding) and attribution (0/1 coding) by least squares over configuration means.
#include "harness/search/effects.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "harness/search/least_squares.hpp"
#include "harness/stats/multiple_testing.hpp"

namespace abtest::search {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// The usable part of the matrix: configuration means and the residual variance of the two-way layout
// config × round without replication (Montgomery 2017, §5.3.7; its §4.1 on the randomized complete block):
// e_cr = y_cr − ȳ_c· − ȳ_·r + ȳ··, σ̂² = Σ e² / ((C − 1)(R − 1)).
struct cleaned {
  std::vector<std::vector<int>> runs;
  std::vector<double> means;
  int rounds = 0;
  double sigma = std::numeric_limits<double>::quiet_NaN();
  double df = 0.0;
  dispersion_model dispersion;   // per-configuration noise, when the matrix shows it (dispersion.hpp)
  std::vector<double> weights;   // 1 / relative variance of each used configuration
};

cleaned clean(const design& d, const std::vector<std::vector<double>>& y) {
  if (y.size() != d.runs.size()) {
    throw std::invalid_argument("error: the matrix has " + std::to_string(y.size()) + " rows for " +
                                std::to_string(d.runs.size()) + " configurations — one row per design run");
  }
  std::vector<std::size_t> used;
  std::size_t width = 0;
  for (std::size_t c = 0; c < y.size(); ++c) {
    bool any = false;
    for (double v : y[c]) any = any || !std::isnan(v);
    if (any) used.push_back(c);
    width = std::max(width, y[c].size());
  }
  std::vector<std::size_t> kept_rounds;
  for (std::size_t r = 0; r < width; ++r) {
    bool complete = true;
    for (std::size_t c : used) complete = complete && r < y[c].size() && !std::isnan(y[c][r]);
    if (complete) kept_rounds.push_back(r);
  }
  cleaned out;
  out.rounds = static_cast<int>(kept_rounds.size());
  if (kept_rounds.empty()) {
    throw std::invalid_argument("error: no round has a value for every configuration — rerun the failed samples");
  }
  const double rr = static_cast<double>(kept_rounds.size());
  for (std::size_t c : used) {
    double sum = 0.0;
    for (std::size_t i = 0; i < kept_rounds.size(); ++i) {
      sum += y[c][kept_rounds[i]];
    }
    out.runs.push_back(d.runs[c]);
    out.means.push_back(sum / rr);
  }
  out.weights.assign(used.size(), 1.0);
  if (kept_rounds.size() >= 2 && used.size() >= 2) {
    out.df = (static_cast<double>(used.size()) - 1.0) * (rr - 1.0);
    // Each configuration's residual sum of squares, round effects b_r taken as the weighted mean of
    // the rounds' deviations: with one σ, b_r = ȳ·r − ȳ·· and Σ_c ss_c / df is the two-way layout's
    // σ̂². Where the dispersion model is active its weights re-estimate b_r and the model, twice
    // more (feasible generalised least squares, Carroll & Ruppert 1988, §2.3), so that noisy
    // configurations do not pass their noise to the quiet ones through the round effects.
    std::vector<double> ss(used.size());
    const auto residual_squares = [&] {
      double weight_sum = 0.0;
      for (double w : out.weights) weight_sum += w;
      std::fill(ss.begin(), ss.end(), 0.0);
      for (std::size_t i = 0; i < kept_rounds.size(); ++i) {
        double b = 0.0;
        for (std::size_t u = 0; u < used.size(); ++u)
          b += out.weights[u] * (y[used[u]][kept_rounds[i]] - out.means[u]) / weight_sum;
        for (std::size_t u = 0; u < used.size(); ++u) {
          const double e = y[used[u]][kept_rounds[i]] - out.means[u] - b;
          ss[u] += e * e;
        }
      }
    };
    residual_squares();
    // One residual degree of freedom per configuration (two rounds) says nothing of its own σ.
    for (int pass = 0; pass < 3 && kept_rounds.size() >= 3; ++pass) {
      out.dispersion = fit_dispersion(out.runs, ss, out.df / static_cast<double>(used.size()), pass == 0 ? 0.01 : 1.0);
      if (!out.dispersion.active()) break;
      for (std::size_t u = 0; u < used.size(); ++u) out.weights[u] = 1.0 / out.dispersion.relative_variance(out.runs[u]);
      residual_squares();
    }
    double weighted = 0.0;
    for (std::size_t u = 0; u < used.size(); ++u) weighted += out.weights[u] * ss[u];
    out.sigma = std::sqrt(weighted / out.df);
  }
  return out;
}

double column(const std::vector<int>& run, const std::vector<int>& term, bool plus_minus) {
  double v = 1.0;
  for (int j : term) {
    const int z = run.at(static_cast<std::size_t>(j));
    v *= plus_minus ? 2.0 * z - 1.0 : z;
  }
  return v;
}

// The terms the usable configurations can separate: modified Gram–Schmidt over the ±1 columns in
// order (intercept, then the terms as given — main effects before pairs), keeping a term only when its
// column is not in the span of those kept before it. All terms are kept for a complete design; a
// configuration that failed in every round can leave a saturated fraction short of a row, and then the
// last aliased terms (pairs) are dropped rather than the whole analysis. The span of the kept columns is
// the same in 0/1 coding as long as every kept pair's main effects are kept, which this order ensures
// except when a main effect itself is aliased.
std::vector<std::vector<int>> estimable(const cleaned& m, const std::vector<std::vector<int>>& terms,
                                        std::vector<std::vector<int>>& dropped) {
  const std::size_t n = m.runs.size();
  std::vector<std::vector<double>> basis{std::vector<double>(n, 1.0 / std::sqrt(static_cast<double>(n)))};
  std::vector<std::vector<int>> kept;
  const double norm0 = std::sqrt(static_cast<double>(n));  // of every ±1 column
  for (const std::vector<int>& t : terms) {
    std::vector<double> v(n);
    for (std::size_t r = 0; r < n; ++r) v[r] = column(m.runs[r], t, true);
    for (const auto& q : basis) {
      double dot = 0.0;
      for (std::size_t r = 0; r < n; ++r) dot += q[r] * v[r];
      for (std::size_t r = 0; r < n; ++r) v[r] -= dot * q[r];
    }
    double norm = 0.0;
    for (double x : v) norm += x * x;
    norm = std::sqrt(norm);
    // A residual this small relative to the column's own norm is a true zero.
    if (norm <= 1e-9 * norm0) {
      dropped.push_back(t);
      continue;
    }
    for (double& x : v) x /= norm;
    basis.push_back(std::move(v));
    kept.push_back(t);
  }
  return kept;
}

// Fits intercept + terms in the chosen coding; `scale` multiplies coefficients (2 turns a ±1
// regression coefficient into the effect E, the high-minus-low difference).
std::vector<term_effect> fit(const cleaned& m, const std::vector<std::vector<int>>& terms, bool plus_minus,
                             double scale, double confidence) {
  std::vector<std::vector<double>> x;
  std::vector<double> means;
  // Weighted least squares (weights 1/σ_c² up to the scale σ̂): each row and mean times √w.
  for (std::size_t c = 0; c < m.runs.size(); ++c) {
    const double root = std::sqrt(m.weights[c]);
    std::vector<double> row{root};
    for (const std::vector<int>& t : terms) row.push_back(root * column(m.runs[c], t, plus_minus));
    x.push_back(std::move(row));
    means.push_back(root * m.means[c]);
  }
  const ls_fit f = least_squares(x, means);
  std::vector<term_effect> out;
  const bool have_se = std::isfinite(m.sigma) && m.df > 0.0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    term_effect e;
    e.factors = terms[i];
    e.estimate = scale * f.coef[i + 1];
    // Cov(β̂) = σ²/R · (XᵀWX)⁻¹ because each configuration mean averages R rounds.
    e.se = have_se ? scale * m.sigma * std::sqrt(f.xtx_inverse[i + 1][i + 1] / m.rounds)
                   : std::numeric_limits<double>::quiet_NaN();
    out.push_back(std::move(e));
  }
  complete_table(out, have_se, m.df, confidence);
  return out;
}

}  // namespace

std::vector<std::vector<int>> default_terms(const design& d) {
  std::vector<std::vector<int>> terms;
  for (int j = 0; j < d.k; ++j) terms.push_back({j});
  if (d.kind != "oat") {
    for (int i = 0; i < d.k; ++i) {
      for (int j = i + 1; j < d.k; ++j) terms.push_back({i, j});
    }
  }
  return terms;
}

void complete_table(std::vector<term_effect>& table, bool have_se, double df, double confidence) {
  std::vector<double> p;
  for (term_effect& e : table) {
    e.ci_low = -inf;
    e.ci_high = inf;
    if (have_se && e.se > 0.0) {
      const boost::math::students_t dist(df);
      const double q = boost::math::quantile(boost::math::complement(dist, (1.0 - confidence) / 2.0));
      e.t = e.estimate / e.se;
      e.p_value = 2.0 * boost::math::cdf(boost::math::complement(dist, std::abs(e.t)));
      e.ci_low = e.estimate - q * e.se;
      e.ci_high = e.estimate + q * e.se;
    } else if (have_se) {  // σ̂ = 0: every round agrees exactly
      e.ci_low = e.ci_high = e.estimate;
      e.p_value = e.estimate != 0.0 ? 0.0 : 1.0;
    }
    p.push_back(e.p_value);
  }
  const std::vector<double> adjusted = stats::holm_adjust(p);
  for (std::size_t i = 0; i < table.size(); ++i) table[i].p_adjusted = adjusted[i];
}

factorial_analysis analyze_factorial(const design& d, const std::vector<std::vector<double>>& y, double confidence) {
  const cleaned m = clean(d, y);
  factorial_analysis out;
  const std::vector<std::vector<int>> terms = estimable(m, default_terms(d), out.not_estimable);
  for (const std::vector<int>& t : out.not_estimable) {
    // Dropping pairs keeps the main effects honest under the usual negligible-interaction premise;
    // an aliased main effect would be credited to another toggle.
    if (t.size() == 1)
      throw std::invalid_argument("too many configurations are missing to separate the main effects (" +
                                  std::to_string(m.runs.size()) + " of " + std::to_string(d.runs.size()) +
                                  " measured) — fix the failed builds or rerun the failed samples");
  }
  out.configs = static_cast<int>(m.runs.size());
  out.rounds = m.rounds;
  out.sigma = m.sigma;
  out.df = m.df;
  out.dispersion = m.dispersion;
  out.effects = fit(m, terms, true, 2.0, confidence);
  out.attribution = fit(m, terms, false, 1.0, confidence);
  return out;
}

std::vector<term_effect> fit_terms(const design& d, const std::vector<std::vector<double>>& y,
                                   const std::vector<std::vector<int>>& terms, double confidence) {
  const cleaned m = clean(d, y);
  std::vector<std::vector<int>> dropped;
  return fit(m, estimable(m, terms, dropped), false, 1.0, confidence);
}

double predict(const std::vector<term_effect>& attribution, const std::vector<int>& config) {
  double sum = 0.0;
  for (const term_effect& e : attribution) sum += column(config, e.factors, false) * e.estimate;
  return sum;
}

}  // namespace abtest::search
