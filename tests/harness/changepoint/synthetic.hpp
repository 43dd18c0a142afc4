// Seeded synthetic nightly series for the change-point tests: noise, steps, spikes, drift, outliers.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace abtest::changepoint::testing {

// n nights of N(0, σ²) log noise around ln(base).
inline std::vector<double> noise(std::size_t n, double sigma, std::uint64_t seed, double base = 10.0) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z(0.0, sigma);
  std::vector<double> x(n);
  for (auto& v : x) v = std::log(base) + z(rng);
  return x;
}

inline void add_step(std::vector<double>& x, std::size_t at, double size) {
  for (std::size_t i = at; i < x.size(); ++i) x[i] += size;
}

// Each night with probability `rate` is multiplied by `scale` (a noisy neighbour, a cold cache).
inline void add_outliers(std::vector<double>& x, double rate, double scale, std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
  std::bernoulli_distribution hit(rate);
  for (auto& v : x)
    if (hit(rng)) v += std::log(scale);
}

}  // namespace abtest::changepoint::testing
