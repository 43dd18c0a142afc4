// Self-contained HTML report: the markdown tables as HTML plus inline SVG plots drawn by gnuplot —
// per-variant distributions, effects, phase breakdown (stacked bars), nightly trends with change
// points marked (plots.hpp: one row per arm or term, trends as small multiples, readable at 64
// variants). Without gnuplot the page says so in place of each plot.
#pragma once

#include "harness/report/exporter.hpp"

namespace abtest::report {

class html_exporter final : public exporter {
 public:
  std::string render(const report_data& r) const override;
};

}  // namespace abtest::report
