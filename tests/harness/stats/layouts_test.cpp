// The two-level layouts × rounds comparison: fixed inputs against SciPy, and a seeded simulation of
// a toggle that changes only the code layout (design §6; 's must-show, on the statistics alone).
#include "harness/stats/layouts.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

#include "harness/stats/paired_t.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::stats {
namespace {

TEST(layouts, matches_welch_on_layout_means_and_the_two_way_residual) {
  const layout_samples c{{1.00, 1.02, 0.99, 1.01, 1.03},
                         {1.05, 1.06, 1.04, 1.07, 1.05},
                         {0.98, 0.99, 1.00, 0.97, 0.99},
                         {1.02, 1.01, 1.03, 1.02, 1.04}};
  const layout_samples b{{0.97, 0.98, 0.96, 0.99, 0.98}, {1.01, 1.00, 1.02, 1.00, 1.01}, {0.95, 0.96, 0.94, 0.97, 0.95}};
  const layout_estimate e = two_level_log_ratio(c, b);
  // SciPy 1.10.1 (Debian python3-scipy), /usr/bin/python3:
  //   mc=np.log(c).mean(axis=1); mb=np.log(b).mean(axis=1); r=s.ttest_ind(mc,mb,equal_var=False)
  //   a=mc.var(ddof=1)/4; bb=mb.var(ddof=1)/3; df=(a+bb)**2/(a*a/3+bb*bb/2); m=mc.mean()-mb.mean()
  //   q=s.t.ppf(0.975,df); print(r.statistic, r.pvalue, df, m, m-q*np.sqrt(a+bb), m+q*np.sqrt(a+bb))
  // → 1.8477960138061453 0.13077079456875523 4.470734914228551 0.03916325071386517
  //   -0.017317469638834203 0.09564397106656455
  EXPECT_NEAR(e.ratio.statistic, 1.8477960138061453, 1e-9);
  EXPECT_NEAR(e.ratio.p_value, 0.13077079456875523, 1e-9);
  EXPECT_NEAR(e.ratio.df, 4.470734914228551, 1e-9);
  EXPECT_NEAR(e.ratio.estimate, 0.03916325071386517, 1e-12);
  EXPECT_NEAR(e.ratio.ci_low, -0.017317469638834203, 1e-9);
  EXPECT_NEAR(e.ratio.ci_high, 0.09564397106656455, 1e-9);
  EXPECT_EQ(e.ratio.n, 7);
  // The additive layout + round model's residual, and the moment estimates of the layout sd:
  //   L=np.vstack([np.log(c),np.log(b)]); cent=L-L.mean(axis=0); res=cent-cent.mean(axis=1,keepdims=True)
  //   w=np.sqrt((res**2).sum()/(7*4-4)); vc=max(0,mc.var(ddof=1)-w*w/5); vb=max(0,mb.var(ddof=1)-w*w/5)
  //   fl=vc/4+vb/3; print(w, np.sqrt(vc), np.sqrt(vb), fl/(fl+w*w/5*(1/4+1/3)))
  // → 0.011754600207983197 0.02734219695035188 0.027176708321859495 0.9641149875700539
  EXPECT_NEAR(e.within_sd, 0.011754600207983197, 1e-12);
  EXPECT_NEAR(e.layout_sd_candidate, 0.02734219695035188, 1e-12);
  EXPECT_NEAR(e.layout_sd_baseline, 0.027176708321859495, 1e-12);
  EXPECT_NEAR(e.layout_share, 0.9641149875700539, 1e-12);
}

TEST(layouts, shared_round_drift_cancels) {
  // The same layouts with a drift of +1% per round common to every binary: the estimate and its
  // interval do not move, nor does the within-layout spread.
  const layout_samples c{{1.0, 1.1, 1.0}, {1.2, 1.1, 1.2}}, b{{0.9, 0.95, 0.9}, {1.0, 1.05, 1.0}};
  layout_samples cd = c, bd = b;
  for (auto* t : {&cd, &bd})
    for (auto& l : *t)
      for (std::size_t r = 0; r < l.size(); ++r) l[r] *= std::pow(1.01, static_cast<double>(r));
  const layout_estimate e = two_level_log_ratio(c, b), d = two_level_log_ratio(cd, bd);
  EXPECT_NEAR(d.ratio.estimate, e.ratio.estimate, 1e-12);
  EXPECT_NEAR(d.ratio.ci_low, e.ratio.ci_low, 1e-12);
  EXPECT_NEAR(d.within_sd, e.within_sd, 1e-12);
}

TEST(layouts, bad_input_is_named) {
  EXPECT_THROW(two_level_log_ratio({}, {{1.0}}), std::invalid_argument);
  EXPECT_THROW(two_level_log_ratio({{1.0, 2.0}}, {{1.0}}), std::invalid_argument);
  EXPECT_THROW(two_level_log_ratio({{1.0, 0.0}}, {{1.0, 1.0}}), std::invalid_argument);
  EXPECT_FALSE(two_level_log_ratio({{1.0, 1.1}}, {{1.0, 1.2}, {1.1, 1.0}}).ratio.has_ci) << "one layout: no CI";
}

// A toggle that moves only the code layout: every binary (a variant linked with one layout) runs
// ln(layout effect) ~ N(0, σ_L) slower or faster, and each run adds N(0, σ_e). Measured with one
// layout per arm, a paired comparison sees the two layouts' difference with a narrow interval and
// calls it a change; with K layouts per arm, the interval carries the layout variance.
struct layout_world {
  std::mt19937_64 rng;
  double sigma_layout, sigma_run;
  double effect = 0.0;  // true ln ratio of the candidate

  layout_samples arm(int layouts, int rounds, double shift) {
    std::normal_distribution<double> layout(0.0, sigma_layout), run(0.0, sigma_run);
    layout_samples out;
    for (int k = 0; k < layouts; ++k) {
      const double l = layout(rng);
      std::vector<double> v;
      for (int r = 0; r < rounds; ++r) v.push_back(std::exp(shift + l + run(rng)));
      out.push_back(std::move(v));
    }
    return out;
  }
};

bool called(const log_estimate& e) {
  const verdict v = decide(e).value;
  return v == verdict::slower || v == verdict::faster;
}

TEST(layouts, a_layout_only_toggle_is_called_often_with_one_layout_and_rarely_with_layouts) {
  // σ_L = 3% (Mytkowicz et al. report link-order effects of this size and more), σ_e = 1%, 20 runs
  // per arm in both designs: one layout × 20 rounds, or 5 layouts × 4 rounds.
  const std::uint64_t seed = 1601;
  layout_world w{std::mt19937_64(seed), std::log1p(0.03), std::log1p(0.01)};
  const int trials = 4000;
  int plain = 0, with_layouts = 0;
  for (int t = 0; t < trials; ++t) {
    const layout_samples v1 = w.arm(1, 20, 0.0), b1 = w.arm(1, 20, 0.0);
    plain += called(paired_log_ratio(v1[0], b1[0]));
    with_layouts += called(two_level_log_ratio(w.arm(5, 4, 0.0), w.arm(5, 4, 0.0)).ratio);
  }
  const double plain_rate = double(plain) / trials, layouts_rate = double(with_layouts) / trials;
  RecordProperty("plain_rate", std::to_string(plain_rate));
  RecordProperty("layouts_rate", std::to_string(layouts_rate));
  // √2·3% between two layouts against a 1% margin: most single-layout runs call a change.
  EXPECT_GE(plain_rate, 0.5) << "seed " << seed;
  // α = 5%, the margin makes it lower still; three binomial SEs of slack.
  EXPECT_LE(layouts_rate, 0.05 + 3 * std::sqrt(0.05 * 0.95 / trials)) << "seed " << seed;
}

TEST(layouts, a_real_effect_is_still_found_with_layouts) {
  const std::uint64_t seed = 1602;
  layout_world w{std::mt19937_64(seed), std::log1p(0.03), std::log1p(0.01)};
  const int trials = 2000;
  int found = 0;
  for (int t = 0; t < trials; ++t) {
    const layout_estimate e = two_level_log_ratio(w.arm(8, 4, std::log(1.15)), w.arm(8, 4, 0.0));
    found += decide(e.ratio).value == verdict::slower;
  }
  RecordProperty("power_15pct_k8", std::to_string(double(found) / trials));
  EXPECT_GE(double(found) / trials, 0.8) << "seed " << seed << ": a 15% regression with 8 layouts per arm";
}

}  // namespace
}  // namespace abtest::stats
