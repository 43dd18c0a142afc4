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

TEST(power, never_fewer_than_two_rounds) {
  EXPECT_EQ(rounds_needed(0.5, 0.0), 2);
  EXPECT_THROW(rounds_needed(0.0, 0.02), std::invalid_argument);
  EXPECT_THROW(rounds_needed(0.02, 0.02, 1.5), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::stats
