// The HTML plots of a 64-variant matrix stay readable, checked on the SVG itself (no browser): no two
// labels overlap and none is cut off at the canvas' edge, the box plots have one labelled row per
// arm in the verdict table's order, and the trend colours only the series with a change point.
// Skipped (not passed) without gnuplot.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "harness/report/exporter.hpp"
#include "harness/report/gnuplot.hpp"
#include "many_variants.hpp"
#include "svg_text.hpp"

namespace abtest::report {
namespace {

std::vector<std::string> svgs_of(const std::string& html) {
  std::vector<std::string> out;
  for (auto p = html.find("<svg"); p != std::string::npos; p = html.find("<svg", p + 1))
    out.push_back(html.substr(p, html.find("</svg>", p) + 6 - p));
  return out;
}

class many_variants : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed (apt-get install gnuplot-nox)";
    report_ = testing::many_variants_report();
    html_ = make_exporter(format::html)->render(report_);
    // To look at it in a browser: ABTEST_REPORT_OUT=/tmp/many.html ctest -R many_variants
    if (const char* out = std::getenv("ABTEST_REPORT_OUT")) std::ofstream(out) << html_;
    ASSERT_EQ(html_.find("plot not drawn"), std::string::npos) << html_;
    svgs_ = svgs_of(html_);
    ASSERT_EQ(svgs_.size(), 4u) << "distributions, effects, phases, one trend";
  }
  report_data report_;
  std::string html_;
  std::vector<std::string> svgs_;
};

TEST_F(many_variants, no_two_labels_overlap_and_none_is_cut_off) {
  for (std::size_t i = 0; i < svgs_.size(); ++i) {
    const auto texts = testing::texts_of(svgs_[i]);
    const auto [width, height] = testing::canvas_of(svgs_[i]);
    ASSERT_GT(texts.size(), 10u) << "plot " << i;
    int collisions = 0;
    for (std::size_t a = 0; a < texts.size(); ++a) {
      for (const auto& [x, y] : texts[a].corners)
        EXPECT_TRUE(x >= -1 && x <= width + 1 && y >= -1 && y <= height + 1)
            << "plot " << i << ": \"" << texts[a].text << "\" reaches " << x << "," << y << " outside " << width << "x" << height;
      for (std::size_t b = a + 1; b < texts.size(); ++b) {
        const double o = testing::overlap(texts[a], texts[b]);
        if (o > 0.5 && ++collisions <= 5)
          ADD_FAILURE() << "plot " << i << ": \"" << texts[a].text << "\" at " << texts[a].x << "," << texts[a].y << " and \""
                        << texts[b].text << "\" at " << texts[b].x << "," << texts[b].y << " overlap by " << o << " px";
      }
    }
    EXPECT_EQ(collisions, 0) << "plot " << i << " has overlapping labels";
  }
}

TEST_F(many_variants, box_plots_have_a_row_per_arm_in_the_order_of_the_verdicts) {
  std::vector<std::string> order{report_.baseline};
  for (const auto& v : report_.verdicts) order.push_back(v.variant);
  ASSERT_EQ(order.size(), 64u);
  const auto texts = testing::texts_of(svgs_[0]);
  double last_y = -1;
  for (const auto& variant : order) {
    const auto t = std::find_if(texts.begin(), texts.end(), [&](const auto& t) { return t.text == variant; });
    ASSERT_NE(t, texts.end()) << variant << " has no label in the distributions plot";
    EXPECT_EQ(t->angle, 0) << variant << "'s label is rotated";
    EXPECT_GT(t->y, last_y) << variant << " is not below the arm before it in the verdict table";
    last_y = t->y;
  }
}

TEST_F(many_variants, trend_colours_and_names_only_the_flagged_series) {
  const std::string& trend = svgs_[3];
  // the flagged series' colour (red: slower, green: faster) and the change points' red line; every
  // other line grey
  const auto colours = testing::stroke_colours(trend);
  EXPECT_LE(colours.size(), 3u) << "the trend colours more than the flagged series";
  const auto texts = testing::texts_of(trend);
  std::set<std::string> flagged;
  for (const auto& c : report_.changepoints) flagged.insert(c.variant);
  std::size_t titles = 0;
  for (const auto& t : texts) {
    const auto from = t.text.find_first_not_of(' ');
    const std::string name = t.text.substr(from, t.text.find("  ", from) - from);
    if (name.find_first_not_of("0123456789.-+") == std::string::npos) continue;  // a tic label
    EXPECT_TRUE(flagged.count(name)) << "\"" << t.text << "\" has no change point, yet is named in the trend";
    titles += flagged.count(name);
  }
  EXPECT_EQ(titles, 12u) << "one panel for each of the 12 largest of " << flagged.size() << " changes";
  EXPECT_NE(html_.find("12 of the 48 series with a change point"), std::string::npos) << "the caption says how many are left out";
}

}  // namespace
}  // namespace abtest::report
