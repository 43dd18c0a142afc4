// A planted log-linear model for the factorial effects tests: 0/1-coded terms and their γ.
#pragma once

#include <cmath>
#include <cstddef>
#include <map>
#include <vector>

namespace abtest::search::testing {

using model = std::map<std::vector<int>, double>;  // 0/1-coded terms → γ

// ln(10) plus the γ of every term whose toggles are all on in `run`.
inline double truth(const model& m, const std::vector<int>& run) {
  double v = std::log(10.0);
  for (const auto& [term, g] : m) {
    bool on = true;
    for (int j : term) on = on && run.at(static_cast<std::size_t>(j));
    if (on) v += g;
  }
  return v;
}

}  // namespace abtest::search::testing
