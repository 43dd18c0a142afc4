// One history series through the whole change-point pipeline: screen → detect → CUSUM on the tail.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "harness/changepoint/cusum.hpp"
#include "harness/changepoint/e_divisive.hpp"
#include "harness/changepoint/pelt.hpp"
#include "harness/changepoint/screening.hpp"

namespace abtest::changepoint {

enum class method { e_divisive, pelt };
std::string_view to_string(method m);
// "e-divisive" | "pelt"; throws std::invalid_argument otherwise.
method parse_method(std::string_view text);

struct detect_options {
  method detector = method::e_divisive;
  screening_options screening;
  e_divisive_options e_divisive;  // its min_magnitude (δ) applies to PELT's points too
  pelt_options pelt;
  cusum_options cusum;
};

struct series_analysis {
  std::vector<double> screened;       // log values after outlier screening
  std::vector<std::size_t> outliers;  // indices screened out
  std::vector<change_point> points;   // ascending by index
  cusum_result cusum;                 // for the latest point, since the last change point
};

// `log_values`: one value per night, oldest first, on the log scale (ln median, or ln of the ratio
// to the canary). PELT points get their magnitude and Welch p between neighbouring segments, and
// those below δ are dropped, so both detectors report alike.
//
//   auto a = changepoint::analyze_series(ln_medians);
//   for (const auto& p : a.points) fmt::print("night {}: {:+.1%}\n", p.index, p.magnitude);
//   if (a.cusum.state == changepoint::alarm::slower) ...
series_analysis analyze_series(const std::vector<double>& log_values, const detect_options& options = {});

}  // namespace abtest::changepoint
