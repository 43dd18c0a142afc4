// Per-configuration noise of a factorial matrix: dispersion effects on ln σ², and the weights they give the fit (design §7).
#pragma once

#include <vector>

namespace abtest::search {

// ln σ_c² = coef[0] + Σ_j coef[1 + j]·z_cj (z the configuration's 0/1 levels), the log-linear
// dispersion model of Box & Meyer (1986, "Dispersion effects from fractional designs",
// Technometrics 28) over the main effects. Inactive (coef empty) when the matrix gave no evidence
// that its configurations' noise differs: every configuration then has one σ, as before.
struct dispersion_model {
  std::vector<double> coef;  // normalised so that the fitted configurations' mean ln relative variance is 0
  double chi2 = 0.0;         // the test of "one σ" (below) and its p-value
  double p_value = 1.0;
  bool active() const { return !coef.empty(); }
  // σ_c² / σ² of a configuration, σ² the matrix's scale (the geometric mean of the fitted
  // configurations' variances); 1 when inactive.
  double relative_variance(const std::vector<int>& run) const;
};

// Fits the dispersion model to the configurations' residual sums of squares `ss` (Σ over rounds of
// the config × round residuals), each on `df` degrees of freedom. ln(ss/df) has variance ψ′(df/2)
// when σ is one (Bartlett & Kendall 1946), so the regression sum of squares of the slopes over
// ψ′(df/2) is χ² on k degrees of freedom under "one σ"; the model is kept only when its p-value is
// below `level`. A configuration with ss = 0 or fewer configurations than k + 1 leave it inactive.
dispersion_model fit_dispersion(const std::vector<std::vector<int>>& runs, const std::vector<double>& ss, double df,
                                double level = 0.01);

}  // namespace abtest::search
