// Detection rates of the whole pipeline on seeded synthetic series (the acceptance figures of
// issue 7): 1σ/2σ/3σ steps, one-night spikes, slow drift with and without a canary, outliers.
// Each test prints its measured rate; a failure prints the seed base to replay it.
#include "harness/changepoint/detect.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "harness/changepoint/canary.hpp"
#include "synthetic.hpp"

namespace abtest::changepoint {
namespace {

constexpr double sigma = 0.02;  // 2% night-to-night noise on the log scale
constexpr std::size_t nights = 100;

struct rates {
  int found = 0;   // steps found within ±2 nights
  int false_points = 0;
  int series = 0;
};

rates step_rates(double size_in_sigma, method m, std::uint64_t seed_base, int replicates) {
  rates r;
  detect_options o;
  o.detector = m;
  for (int rep = 0; rep < replicates; ++rep) {
    const std::uint64_t seed = seed_base + static_cast<std::uint64_t>(rep);
    auto x = testing::noise(nights, sigma, seed);
    const std::size_t at = 30 + seed % 40;  // the step lands anywhere in the middle of the series
    testing::add_step(x, at, size_in_sigma * sigma);
    const auto a = analyze_series(x, o);
    bool found = false;
    for (const auto& p : a.points) {
      const bool near = p.index + 2 >= at && p.index <= at + 2;
      found |= near;
      r.false_points += !near;
    }
    r.found += found;
    ++r.series;
  }
  return r;
}

void report(const std::string& what, const rates& r) {
  std::printf("[ measured ] %s: %d/%d steps found within ±2 nights (%.1f%%), %d other points\n", what.c_str(), r.found,
              r.series, 100.0 * r.found / r.series, r.false_points);
}

class step_detection : public ::testing::TestWithParam<method> {};

TEST_P(step_detection, two_sigma_steps_are_found_within_two_nights) {
  const auto r = step_rates(2.0, GetParam(), 1000, 200);
  report(std::string(to_string(GetParam())) + " 2σ", r);
  EXPECT_GE(r.found, 180) << "seed base 1000";
}

TEST_P(step_detection, three_sigma_steps_are_found_and_one_sigma_steps_often) {
  const auto r3 = step_rates(3.0, GetParam(), 2000, 100);
  const auto r1 = step_rates(1.0, GetParam(), 3000, 100);
  report(std::string(to_string(GetParam())) + " 3σ", r3);
  report(std::string(to_string(GetParam())) + " 1σ", r1);
  EXPECT_GE(r3.found, 98) << "seed base 2000";
  EXPECT_GE(r1.found, 40) << "seed base 3000";
}

int false_points(method m, std::uint64_t seed_base, int replicates, double drift_total_sigma, double outlier_rate,
                 bool with_canary, int spikes) {
  detect_options o;
  o.detector = m;
  int total = 0;
  for (int rep = 0; rep < replicates; ++rep) {
    const std::uint64_t seed = seed_base + static_cast<std::uint64_t>(rep);
    auto x = testing::noise(nights, sigma, seed);
    auto canary = testing::noise(nights, sigma / 2, seed + 77777, 20.0);
    for (std::size_t i = 0; i < nights; ++i) {
      const double drift = drift_total_sigma * sigma * static_cast<double>(i) / nights;
      x[i] += drift;
      canary[i] += drift;
    }
    testing::add_outliers(x, outlier_rate, 1.3, seed);
    for (int s = 0; s < spikes; ++s) x[10 + (seed * 7 + static_cast<std::uint64_t>(s) * 31) % 80] += 8 * sigma;
    std::vector<double> series = x;
    if (with_canary) {
      std::vector<night_value> a, c;
      for (std::size_t i = 0; i < nights; ++i) {
        a.push_back({std::to_string(i), std::exp(x[i])});
        c.push_back({std::to_string(i), std::exp(canary[i])});
      }
      series.clear();
      for (const auto& p : normalize_by_canary(a, c)) series.push_back(p.value);
    }
    total += static_cast<int>(analyze_series(series, o).points.size());
  }
  return total;
}

TEST_P(step_detection, at_most_one_false_point_per_hundred_clean_nights) {
  const int n = false_points(GetParam(), 4000, 100, 0, 0, false, 0);
  std::printf("[ measured ] %s clean: %d false points in %zu nights\n", std::string(to_string(GetParam())).c_str(), n,
              100 * nights);
  EXPECT_LE(n, 100) << "seed base 4000";
}

TEST_P(step_detection, one_night_spikes_are_not_reported) {
  const int n = false_points(GetParam(), 5000, 100, 0, 0, false, 3);
  std::printf("[ measured ] %s with 3 spikes of 8σ per 100 nights: %d points in %zu nights\n",
              std::string(to_string(GetParam())).c_str(), n, 100 * nights);
  EXPECT_LE(n, 100) << "seed base 5000";
}

TEST_P(step_detection, outliers_are_screened) {
  const int n = false_points(GetParam(), 6000, 100, 0, 0.03, false, 0);
  std::printf("[ measured ] %s with 3%% outliers ×1.3: %d points in %zu nights\n", std::string(to_string(GetParam())).c_str(),
              n, 100 * nights);
  EXPECT_LE(n, 100) << "seed base 6000";
}

TEST_P(step_detection, canary_cancels_machine_drift) {
  const int raw = false_points(GetParam(), 7000, 50, 4, 0, false, 0);
  const int normalized = false_points(GetParam(), 7000, 50, 4, 0, true, 0);
  std::printf("[ measured ] %s slow drift of 4σ over 100 nights: %d points raw, %d after the canary, in %zu nights\n",
              std::string(to_string(GetParam())).c_str(), raw, normalized, 50 * nights);
  EXPECT_GT(raw, normalized) << "seed base 7000";
  EXPECT_LE(normalized, 50) << "seed base 7000";
}

INSTANTIATE_TEST_SUITE_P(methods, step_detection, ::testing::Values(method::e_divisive, method::pelt),
                         [](const auto& info) { return info.param == method::pelt ? "pelt" : "e_divisive"; });

TEST(detect, cusum_runs_from_the_last_change_point) {
  auto x = testing::noise(60, sigma, 8);
  testing::add_step(x, 30, 5 * sigma);
  const auto a = analyze_series(x);
  ASSERT_FALSE(a.points.empty()) << "seed 8";
  EXPECT_EQ(a.cusum.since, std::max<std::size_t>(a.points.back().index + 10, 60 - 14));
  EXPECT_EQ(a.cusum.state, alarm::none) << "the new level is the reference: no alarm, seed 8";
}

TEST(detect, method_names_round_trip) {
  EXPECT_EQ(parse_method(to_string(method::pelt)), method::pelt);
  EXPECT_EQ(parse_method(to_string(method::e_divisive)), method::e_divisive);
  EXPECT_THROW(parse_method("bocpd"), std::invalid_argument);
}

}  // namespace
}  // namespace abtest::changepoint
