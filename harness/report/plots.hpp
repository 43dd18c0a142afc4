// The gnuplot scripts of the HTML report's plots, laid out to stay readable at 64 variants.
#pragma once

#include <string>

#include "harness/report/report_data.hpp"

namespace abtest::report {

// A plot to draw (gnuplot.hpp's plot_svg): its caption, script with inline data and size in pixels.
struct plot {
  std::string caption, script;
  int width = 1000, height = 400;
};

// Every per-arm and per-term plot has one horizontal row per arm or term, its label on the left and
// its change on the right, and grows in height with the count (18 px a row), so that no two labels
// share a line whatever the count. Rows read in the order of the tables: base first, then the arms
// as the verdicts are ordered (regressions first, then by the size of the effect).

// Box plots of the headline metric per arm (quartiles, whiskers at 1.5 IQR, outliers as points;
// Tukey 1977), coloured by verdict (red a regression, green a material improvement), the baseline's
// median as a dashed line.
plot distributions_plot(const report_data& r);

// Each term's effect (ln ratio) with its 95% CI, worse first, coloured when the CI excludes zero.
plot effects_plot(const report_data& r);

// The phases' medians per arm as stacked horizontal bars.
plot phases_plot(const report_data& r);

// The nightly series of one metric. Up to 6 series share one frame, each in its colour. More are
// drawn as small multiples (Tufte 1983): one panel per series with a change point, at most 12, in the
// order of the change points' table (open and worse first, then the largest), that series in colour
// (red worse, green better) over a grey band spanning every series, the baseline dashed and the
// change points as red lines; with no change point, one panel with the band.
plot trend_plot(const report_data& r, const std::string& metric);

}  // namespace abtest::report
