// The dispersion model of a factorial matrix: a log-linear regression of the configurations' residual variances.
#include "harness/search/dispersion.hpp"

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <cmath>
#include <stdexcept>

#include "harness/search/least_squares.hpp"

namespace abtest::search {

double dispersion_model::relative_variance(const std::vector<int>& run) const {
  if (!active()) return 1.0;
  double v = coef[0];
  for (std::size_t j = 0; j + 1 < coef.size() && j < run.size(); ++j) v += coef[j + 1] * run[j];
  return std::exp(v);
}

dispersion_model fit_dispersion(const std::vector<std::vector<int>>& runs, const std::vector<double>& ss, double df,
                                double level) {
  dispersion_model out;
  const std::size_t n = runs.size();
  if (n == 0 || ss.size() != n || !(df > 0.0)) return out;
  const std::size_t k = runs.front().size();
  if (n < k + 1) return out;
  std::vector<std::vector<double>> x;
  std::vector<double> z;
  for (std::size_t c = 0; c < n; ++c) {
    if (!(ss[c] > 0.0) || !std::isfinite(ss[c])) return out;  // a configuration that never varied: no log
    std::vector<double> row{1.0};
    for (int z_j : runs[c]) row.push_back(z_j);
    x.push_back(std::move(row));
    z.push_back(std::log(ss[c] / df));
  }
  ls_fit f;
  try {
    f = least_squares(x, z);
  } catch (const std::invalid_argument&) {
    return out;  // the configurations cannot separate the toggles' dispersion effects
  }
  double mean_z = 0.0, mean_fit = 0.0, ss_reg = 0.0;
  std::vector<double> fitted(n, 0.0);
  for (std::size_t c = 0; c < n; ++c) {
    for (std::size_t t = 0; t < x[c].size(); ++t) fitted[c] += x[c][t] * f.coef[t];
    mean_z += z[c] / static_cast<double>(n);
    mean_fit += fitted[c] / static_cast<double>(n);
  }
  for (std::size_t c = 0; c < n; ++c) ss_reg += (fitted[c] - mean_z) * (fitted[c] - mean_z);
  // Var ln(χ²_d/d) = ψ′(d/2): the known variance of each configuration's log variance under one σ.
  const double var_log = boost::math::trigamma(df / 2.0);
  out.chi2 = ss_reg / var_log;
  out.p_value = boost::math::cdf(boost::math::complement(boost::math::chi_squared(static_cast<double>(k)), out.chi2));
  if (!(out.p_value < level)) return out;
  out.coef = f.coef;
  out.coef[0] -= mean_fit;  // relative to the geometric mean of the fitted variances
  return out;
}

}  // namespace abtest::search
