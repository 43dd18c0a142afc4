// The pooled fit over a search's matrices and comparisons.
#include "harness/search/pooled_fit.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>

#include "harness/search/least_squares.hpp"

namespace abtest::search {

namespace {

// The 0/1 value of each term in `config`; nullopt when a factor sits at a level that is neither its
// low nor its high one (not a configuration of this model).
std::optional<std::vector<double>> coding(const levels& config, const std::vector<factor>& factors,
                                          const std::vector<std::vector<int>>& terms) {
  std::vector<double> high(factors.size());
  for (std::size_t j = 0; j < factors.size(); ++j) {
    const auto it = config.find(factors[j].toggle);
    const std::string& level = it == config.end() ? factors[j].low : it->second;
    if (level == factors[j].high) high[j] = 1.0;
    else if (level != factors[j].low) return std::nullopt;
  }
  std::vector<double> x;
  for (const std::vector<int>& t : terms) {
    double v = 1.0;
    for (int j : t) v *= high[static_cast<std::size_t>(j)];
    x.push_back(v);
  }
  return x;
}

}  // namespace

pooled_fit fit_every_run(const search_session& session, const std::vector<factor>& factors,
                         const std::vector<std::vector<int>>& terms, double confidence,
                         const std::function<double(const levels&)>& relative_variance) {
  const auto rv = [&](const levels& l) { return relative_variance ? relative_variance(l) : 1.0; };
  pooled_fit out;
  const std::size_t p = terms.size();
  if (p == 0) return out;
  std::vector<std::vector<double>> rows;
  std::vector<double> ys;
  double residual_extra = 0.0;  // the A/Bs' within-sample squares, (r − 1)s²/2 each
  int blocks = 0;

  for (const auto& m : session.matrices()) {
    std::vector<std::optional<std::vector<double>>> x;
    std::vector<double> w;  // 1/σ_c² up to the scale
    for (const levels& c : m.configs) {
      x.push_back(coding(c, factors, terms));
      w.push_back(1.0 / rv(c));
    }
    const std::size_t rounds = m.log_values.empty() ? 0 : m.log_values.front().size();
    for (std::size_t r = 0; r < rounds; ++r) {
      std::vector<std::size_t> used;
      for (std::size_t c = 0; c < m.configs.size(); ++c)
        if (x[c] && r < m.log_values[c].size() && std::isfinite(m.log_values[c][r])) used.push_back(c);
      if (used.size() < 2) continue;
      double y_mean = 0.0, w_sum = 0.0;
      std::vector<double> x_mean(p, 0.0);
      for (std::size_t c : used) {
        y_mean += w[c] * m.log_values[c][r];
        for (std::size_t t = 0; t < p; ++t) x_mean[t] += w[c] * (*x[c])[t];
        w_sum += w[c];
      }
      y_mean /= w_sum;
      for (double& v : x_mean) v /= w_sum;
      for (std::size_t c : used) {
        const double root = std::sqrt(w[c]);
        std::vector<double> row(p);
        for (std::size_t t = 0; t < p; ++t) row[t] = root * ((*x[c])[t] - x_mean[t]);
        rows.push_back(std::move(row));
        ys.push_back(root * (m.log_values[c][r] - y_mean));
      }
      out.observations += static_cast<int>(used.size());
      ++blocks;
    }
  }
  for (const auto& c : session.measured()) {
    const auto a = coding(c.from, factors, terms), b = coding(c.to, factors, terms);
    const stats::log_estimate& e = c.estimate;
    if (!a || !b || e.n < 2 || !std::isfinite(e.spread) || !std::isfinite(e.estimate)) continue;
    // One row that carries the r rounds' sufficient statistics: x = √(r/v)·(b − a), y = √(r/v)·d̄,
    // with v = 2 under one σ, else the two arms' relative variances summed.
    const double v = rv(c.from) + rv(c.to);
    const double w = std::sqrt(e.n / v);
    std::vector<double> row(p);
    for (std::size_t t = 0; t < p; ++t) row[t] = w * ((*b)[t] - (*a)[t]);
    rows.push_back(std::move(row));
    ys.push_back(w * e.estimate);
    residual_extra += (e.n - 1) * e.spread * e.spread / v;
    out.observations += 2 * e.n;
    blocks += e.n;
  }
  out.df = static_cast<double>(out.observations - blocks) - static_cast<double>(p);
  if (rows.size() < p || out.df < 1.0) return pooled_fit{};

  ls_fit fit;
  try {
    fit = least_squares(rows, ys);
  } catch (const std::invalid_argument&) {
    return pooled_fit{};
  }
  double rss = residual_extra;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    double fitted = 0.0;
    for (std::size_t t = 0; t < p; ++t) fitted += rows[i][t] * fit.coef[t];
    rss += (ys[i] - fitted) * (ys[i] - fitted);
  }
  out.sigma = std::sqrt(rss / out.df);
  for (std::size_t t = 0; t < p; ++t) {
    term_effect e;
    e.factors = terms[t];
    e.estimate = fit.coef[t];
    e.se = out.sigma * std::sqrt(fit.xtx_inverse[t][t]);
    out.terms.push_back(std::move(e));
  }
  complete_table(out.terms, true, out.df, confidence);
  return out;
}

}  // namespace abtest::search
