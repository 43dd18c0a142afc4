// Ordinary least squares for the small, dense models of factorial attribution.
#pragma once

#include <vector>

namespace abtest::search {

struct ls_fit {
  std::vector<double> coef;                     // β̂ = (XᵀX)⁻¹ Xᵀ y
  std::vector<std::vector<double>> xtx_inverse;  // (XᵀX)⁻¹: Cov(β̂) = σ² (XᵀX)⁻¹
};

// Fits y ≈ X β (X is rows × p, p ≤ a few dozen) through the normal equations, inverted by Gauss–Jordan
// elimination with partial pivoting (Golub & Van Loan 2013, §3.4). Throws std::invalid_argument when
// XᵀX is singular: the design cannot separate the requested terms.
ls_fit least_squares(const std::vector<std::vector<double>>& x, const std::vector<double>& y);

}  // namespace abtest::search
