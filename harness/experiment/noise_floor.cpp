// The noise floor of an A/A′ comparison, per metric (see noise_floor.hpp).
#include "harness/experiment/noise_floor.hpp"

#include <algorithm>
#include <cmath>

namespace abtest {

std::vector<metric_floor> noise_floors(const analysis_result& a, const std::vector<std::string>& metrics, floor_source source) {
  std::vector<metric_floor> out;
  for (const auto& row : a.rows) {
    if (!metrics.empty() && std::find(metrics.begin(), metrics.end(), row.metric) == metrics.end()) continue;
    if (!row.primary.has_ci || (source == floor_source::layouts && !row.layouts)) continue;
    metric_floor f;
    f.row = &row;
    f.floor = std::expm1(std::max(std::abs(row.primary.ci_low), std::abs(row.primary.ci_high)));
    if (source == floor_source::layouts)
      f.layout_sd = std::sqrt((std::pow(row.layouts->sd_baseline, 2) + std::pow(row.layouts->sd_candidate, 2)) / 2);
    out.push_back(f);
  }
  return out;
}

}  // namespace abtest
