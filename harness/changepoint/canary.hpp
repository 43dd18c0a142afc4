// Normalisation of a history series by a frozen canary build measured the same nights.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace abtest::changepoint {

struct night_value {
  std::string night;  // what pairs a point with the canary's: the experiment id
  double value = 0;   // > 0
};

// ln(value / canary value of the same night) for each night the canary has, in the order of
// `series`; nights without a canary point are left out (they cannot be normalised), and so are
// values ≤ 0. Machine drift that moves both builds alike (thermal, firmware, noisy neighbours)
// cancels; a change in the code under test does not touch the frozen canary and stays.
std::vector<night_value> normalize_by_canary(const std::vector<night_value>& series,
                                             const std::vector<night_value>& canary);

}  // namespace abtest::changepoint
