// Tests of Welch's unequal-variance t against SciPy.
#include "harness/stats/welch.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace abtest::stats {
namespace {

TEST(welch, matches_scipy_ttest_ind_unequal_var_on_logs) {
  const std::vector<double> x{2.01, 2.05, 1.98, 2.10, 2.03, 2.07};
  const std::vector<double> y{1.95, 1.97, 1.99, 1.94, 1.96, 1.93, 1.98, 1.92, 1.97};
  const log_estimate e = welch_log_ratio(x, y);
  // python3 -c "import scipy.stats as s,numpy as np; x=[2.01,2.05,1.98,2.10,2.03,2.07];
  //   y=[1.95,1.97,1.99,1.94,1.96,1.93,1.98,1.92,1.97]; r=s.ttest_ind(np.log(x),np.log(y),equal_var=False);
  //   print(r.statistic,r.pvalue)" → 4.390232861892938 0.0029917646831442795
  EXPECT_NEAR(e.statistic, 4.390232861892938, 1e-9);
  EXPECT_NEAR(e.p_value, 0.0029917646831442795, 1e-10);
  // Welch–Satterthwaite df and the 95% CI (SciPy 1.10 has no CI for ttest_ind, so by its formula):
  // python3 -c "import numpy as np,scipy.stats as s; x=np.log([2.01,2.05,1.98,2.10,2.03,2.07]);
  //   y=np.log([1.95,1.97,1.99,1.94,1.96,1.93,1.98,1.92,1.97]); a=x.var(ddof=1)/len(x); b=y.var(ddof=1)/len(y);
  //   df=(a+b)**2/(a*a/(len(x)-1)+b*b/(len(y)-1)); m=x.mean()-y.mean(); q=s.t.ppf(0.975,df);
  //   print(df,m,m-q*np.sqrt(a+b),m+q*np.sqrt(a+b))"
  // → 7.193704098100034 0.04158712007663368 0.019309562282288528 0.06386467787097883
  EXPECT_NEAR(e.df, 7.193704098100034, 1e-9);
  EXPECT_NEAR(e.estimate, 0.04158712007663368, 1e-12);
  EXPECT_NEAR(e.ci_low, 0.019309562282288528, 1e-10);
  EXPECT_NEAR(e.ci_high, 0.06386467787097883, 1e-10);
  EXPECT_EQ(e.n, 15);
}

TEST(welch, degenerate_samples) {
  EXPECT_FALSE(welch_t(std::vector<double>{1.0}, std::vector<double>{1.0, 2.0}).has_ci);
  const log_estimate flat = welch_t(std::vector<double>{2.0, 2.0}, std::vector<double>{1.0, 1.0, 1.0});
  EXPECT_TRUE(flat.has_ci);
  EXPECT_DOUBLE_EQ(flat.ci_low, 1.0);
  EXPECT_DOUBLE_EQ(flat.ci_high, 1.0);
  EXPECT_EQ(flat.p_value, 0.0);
  EXPECT_THROW(welch_log_ratio(std::vector<double>{-1.0, 1.0}, std::vector<double>{1.0, 1.0}), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::stats
