// Student t quantile and tail from Boost.Math.
#include "harness/stats/t_interval.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>

namespace abtest::stats {

void set_t_interval(log_estimate& e, double se, double confidence) {
  e.has_ci = true;
  if (se == 0.0) {
    e.ci_low = e.ci_high = e.estimate;
    e.p_value = e.estimate != 0.0 ? 0.0 : 1.0;
    e.statistic = e.estimate == 0.0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), e.estimate);
    return;
  }
  const boost::math::students_t dist(e.df);
  const double q = boost::math::quantile(boost::math::complement(dist, (1.0 - confidence) / 2.0));
  e.ci_low = e.estimate - q * se;
  e.ci_high = e.estimate + q * se;
  e.statistic = e.estimate / se;
  e.p_value = 2.0 * boost::math::cdf(boost::math::complement(dist, std::abs(e.statistic)));
}

}  // namespace abtest::stats
