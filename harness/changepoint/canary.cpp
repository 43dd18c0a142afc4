// Canary normalisation (see canary.hpp).
#include "harness/changepoint/canary.hpp"

#include <cmath>

namespace abtest::changepoint {

std::vector<night_value> normalize_by_canary(const std::vector<night_value>& series,
                                             const std::vector<night_value>& canary) {
  std::map<std::string, double> by_night;
  for (const auto& c : canary)
    if (c.value > 0) by_night[c.night] = c.value;
  std::vector<night_value> out;
  for (const auto& p : series) {
    const auto it = by_night.find(p.night);
    if (it != by_night.end() && p.value > 0) out.push_back({p.night, std::log(p.value / it->second)});
  }
  return out;
}

}  // namespace abtest::changepoint
