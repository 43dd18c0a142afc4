// Tests of the rounds-needed power formula.
#include "harness/stats/power.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace abtest::stats {
namespace {

TEST(power, rounds_for_three_percent_at_two_percent_noise) {
  // σ_d = 0.028 (two arms of cv 2%): python3 -c "import scipy.stats as s,math;
  //   print((s.norm.ppf(0.975)+s.norm.ppf(0.8))**2*0.028**2/math.log(1.03)**2)" → 7.042876507832081
  EXPECT_EQ(rounds_needed(0.03, 0.028), 8);
  // Half the effect, about four times the rounds: python3 -c "import scipy.stats as s,math;
  //   print((s.norm.ppf(0.975)+s.norm.ppf(0.8))**2*0.028**2/math.log(1.015)**2)" → 27.759732954040068
  EXPECT_EQ(rounds_needed(0.015, 0.028), 28);
  // Slowdowns and speed-ups are planned alike in log space: ln(0.97) ≈ −ln(1.03).
  EXPECT_NEAR(rounds_needed(-0.03, 0.028), 8, 1);
}

// The factor on a measured variance at its upper bound, against SciPy (python3-scipy):
//   /usr/bin/python3 -c "from scipy.stats import chi2; print(9/chi2.ppf(0.2,9), 30/chi2.ppf(0.05,30))"
//   → 1.6728459079744966 1.622265180185602
TEST(power, a_variance_at_its_upper_confidence_bound) {
  EXPECT_NEAR(variance_upper_bound(1.0, 9.0, 0.8), 1.6728459079744966, 1e-9);
  EXPECT_NEAR(variance_upper_bound(4e-4, 30.0, 0.95), 4e-4 * 1.622265180185602, 1e-12);
  EXPECT_GT(variance_upper_bound(1.0, 1000.0, 0.95), 1.0);
  EXPECT_LT(variance_upper_bound(1.0, 1000.0, 0.95), 1.1) << "many degrees of freedom: the bound closes in";
}

TEST(power, never_fewer_than_two_rounds) {
  EXPECT_EQ(rounds_needed(0.5, 0.0), 2);
  EXPECT_THROW(rounds_needed(0.0, 0.02), std::invalid_argument);
  EXPECT_THROW(rounds_needed(0.02, 0.02, 1.5), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::stats
