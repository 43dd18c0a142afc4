// Tests of the pooled fit over everything a search measured: an A/B's summary is worth its rounds,
// a matrix alone gives the re-fit's estimates, and what is not a configuration of the model stays out.
#include "harness/search/pooled_fit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <random>

#include "harness/search/design.hpp"
#include "harness/search/effects.hpp"
#include "planted_model.hpp"

namespace abtest::search {
namespace {

// Hands out what it is given, in order: each compare() the summary of the next list of paired
// differences, each run_matrix() the next block of log values.
class scripted_oracle : public oracle {
 public:
  std::deque<std::vector<double>> differences;
  std::deque<std::vector<std::vector<double>>> matrices;

  comparison compare(const levels&, const levels&, const comparison_request&) override {
    const std::vector<double> d = differences.front();
    differences.pop_front();
    comparison c;
    double sum = 0.0, squares = 0.0;
    for (double x : d) sum += x;
    const double mean = sum / static_cast<double>(d.size());
    for (double x : d) squares += (x - mean) * (x - mean);
    c.estimate.n = static_cast<int>(d.size());
    c.estimate.estimate = mean;
    c.estimate.spread = std::sqrt(squares / static_cast<double>(d.size() - 1));
    c.rounds = c.estimate.n;
    c.runs = 2 * c.rounds;
    c.verdict = stats::verdict::slower;
    return c;
  }

  matrix_result run_matrix(const std::vector<levels>&, int) override {
    matrix_result m;
    m.log_values = matrices.front();
    matrices.pop_front();
    return m;
  }
};

const std::vector<toggle_spec> two_toggles{{"A", {"OFF", "ON"}, ""}, {"B", {"0", "1", "2"}, "2"}};
const std::vector<factor> ab = {{"A", "OFF", "ON", "A"}, {"B", "0", "2", "B=2"}};
const levels none{}, a_on{{"A", "ON"}}, b_on{{"B", "2"}}, both{{"A", "ON"}, {"B", "2"}};

std::vector<std::vector<double>> noisy_cells(const std::vector<double>& truth, int rounds, std::mt19937_64& rng) {
  std::normal_distribution<double> noise(0.0, 0.02);
  std::vector<std::vector<double>> y(truth.size());
  for (int r = 0; r < rounds; ++r) {
    const double block = noise(rng) * 3.0;  // a round's own level, which the blocks absorb
    for (std::size_t c = 0; c < truth.size(); ++c) y[c].push_back(truth[c] + block + noise(rng));
  }
  return y;
}

void expect_same_fit(const pooled_fit& a, const pooled_fit& b) {
  ASSERT_EQ(a.terms.size(), b.terms.size());
  EXPECT_EQ(a.observations, b.observations);
  EXPECT_DOUBLE_EQ(a.df, b.df);
  EXPECT_NEAR(a.sigma, b.sigma, 1e-12);
  for (std::size_t t = 0; t < a.terms.size(); ++t) {
    EXPECT_NEAR(a.terms[t].estimate, b.terms[t].estimate, 1e-12);
    EXPECT_NEAR(a.terms[t].se, b.terms[t].se, 1e-12);
    EXPECT_NEAR(a.terms[t].ci_low, b.terms[t].ci_low, 1e-12);
  }
}

// The sufficiency the fit rests on: an A/B entered as (mean, sd, rounds) fits exactly as its rounds
// would, entered one by one as two-configuration blocks.
TEST(pooled_fit, an_ab_summary_fits_exactly_as_its_rounds) {
  std::mt19937_64 rng(11);
  const std::vector<std::vector<int>> terms{{0}, {1}, {0, 1}};
  const auto cells = noisy_cells({0.0, 0.05, 0.01, 0.09}, 4, rng);  // none, A, B, both
  const auto pair = noisy_cells({0.0, 0.05}, 7, rng);                 // none, A

  scripted_oracle summarised;
  summarised.matrices.push_back(cells);
  std::vector<double> d;
  for (std::size_t r = 0; r < pair[0].size(); ++r) d.push_back(pair[1][r] - pair[0][r]);
  summarised.differences.push_back(d);
  search_session s1(summarised, two_toggles);
  s1.run_matrix({none, a_on, b_on, both}, 4);
  s1.measure(none, a_on, {});

  scripted_oracle as_blocks;
  as_blocks.matrices.push_back(cells);
  as_blocks.matrices.push_back(pair);
  search_session s2(as_blocks, two_toggles);
  s2.run_matrix({none, a_on, b_on, both}, 4);
  s2.run_matrix({none, a_on}, 7);

  const pooled_fit f1 = fit_every_run(s1, ab, terms), f2 = fit_every_run(s2, ab, terms);
  ASSERT_EQ(f1.terms.size(), 3u);
  expect_same_fit(f1, f2);
  EXPECT_EQ(f1.observations, 16 + 14);
  EXPECT_DOUBLE_EQ(f1.df, 30.0 - (4 + 7) - 3);
  // A's 0/1 effect beside its pair is the cell contrast A − none: 4 matrix rounds give it variance
  // 2σ²/4, and the A/B's 7 paired rounds add information 7/(2σ²) — all of them, where a round of
  // the 2² matrix spends half of its runs on B's cells.
  search_session matrix_only(as_blocks, two_toggles);
  as_blocks.matrices.push_back(cells);
  matrix_only.run_matrix({none, a_on, b_on, both}, 4);
  const pooled_fit f0 = fit_every_run(matrix_only, ab, terms);
  EXPECT_NEAR(f0.terms[0].se / f0.sigma, std::sqrt(2.0 / 4.0), 1e-12);
  EXPECT_NEAR(f1.terms[0].se / f1.sigma, std::sqrt(1.0 / (4.0 / 2.0 + 7.0 / 2.0)), 1e-12);
}

// A matrix alone gives the 0/1 re-fit's estimates (effects.hpp fit_terms, which fits the design's
// cell means): on a balanced design, centring within rounds changes nothing but the error term.
TEST(pooled_fit, a_matrix_alone_gives_the_refits_estimates) {
  const design half = fractional_factorial(5);
  const testing::model planted{{{0}, 0.06}, {{3}, 0.05}, {{0, 3}, 0.07}, {{2}, -0.004}};
  std::mt19937_64 rng(5);
  std::vector<double> truth;
  std::vector<levels> configs;
  std::vector<factor> factors;
  std::vector<toggle_spec> toggles;
  for (int j = 0; j < 5; ++j) {
    const std::string id(1, static_cast<char>('P' + j));
    toggles.push_back({id, {"OFF", "ON"}, ""});
    factors.push_back({id, "OFF", "ON", id});
  }
  for (const auto& run : half.runs) {
    truth.push_back(testing::truth(planted, run));
    configs.push_back(apply({}, factors, run));
  }
  const auto y = noisy_cells(truth, 6, rng);
  scripted_oracle o;
  o.matrices.push_back(y);
  search_session s(o, toggles);
  s.run_matrix(configs, 6);
  const std::vector<std::vector<int>> terms{{0}, {2}, {3}, {0, 3}};
  const pooled_fit pooled = fit_every_run(s, factors, terms);
  const std::vector<term_effect> refit = fit_terms(half, y, terms);
  ASSERT_EQ(pooled.terms.size(), refit.size());
  for (std::size_t t = 0; t < refit.size(); ++t) EXPECT_NEAR(pooled.terms[t].estimate, refit[t].estimate, 1e-12);
  EXPECT_NEAR(pooled.terms[3].estimate, 0.07, 0.03);
  EXPECT_DOUBLE_EQ(pooled.df, 16.0 * 6 - 6 - 4);
}

// A comparison with a toggle at a level that is neither the factor's low nor its high one (B=1
// here) is not a configuration of the model and stays out; so does one without a spread.
TEST(pooled_fit, what_is_not_a_configuration_of_the_model_stays_out) {
  std::mt19937_64 rng(3);
  const std::vector<std::vector<int>> terms{{0}, {1}};
  const auto cells = noisy_cells({0.0, 0.05, 0.01, 0.06}, 5, rng);
  scripted_oracle o;
  o.matrices.push_back(cells);
  o.differences.push_back({0.3, 0.31, 0.29});
  o.differences.push_back({0.5});  // one round: no spread
  search_session s(o, two_toggles);
  s.run_matrix({none, a_on, b_on, both}, 5);
  const pooled_fit before = fit_every_run(s, ab, terms);
  s.measure(none, {{"B", "1"}}, {});
  s.measure(none, a_on, {});
  expect_same_fit(fit_every_run(s, ab, terms), before);
  EXPECT_TRUE(fit_every_run(s, ab, {}).terms.empty());
}

}  // namespace
}  // namespace abtest::search
