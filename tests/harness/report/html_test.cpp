// The HTML report opened in headless chromium: the screenshot must show the plots, not a blank or
// table-only page. Skipped (not passed) without chromium, gnuplot or python3.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "db/results_store.hpp"
#include "harness/report/exporter.hpp"
#include "harness/report/gnuplot.hpp"
#include "report_fixture.hpp"

namespace abtest::report {
namespace {

bool on_path(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

std::string run(const std::string& command) {
  std::string out;
  if (FILE* p = popen(command.c_str(), "r")) {
    char buf[256];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  return out;
}

TEST(html_report, chromium_screenshot_shows_the_plots) {
  if (!on_path("chromium")) GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed (apt-get install gnuplot-nox)";
  if (std::string(ABTEST_PYTHON).empty()) GTEST_SKIP() << "python3 is not installed";
  char templ[] = "/tmp/abtest-html-XXXXXX";
  ASSERT_NE(mkdtemp(templ), nullptr);
  const std::filesystem::path dir = templ;
  testing::write_fixture(dir / "results.db");
  std::string html;
  {
    db::results_store store(dir / "results.db", db::open_mode::read_only);
    html = make_exporter(format::html)->render(load_nightly(store));
  }
  EXPECT_EQ(html.find("plot not drawn"), std::string::npos);
  std::size_t svgs = 0;
  for (auto p = html.find("<svg"); p != std::string::npos; p = html.find("<svg", p + 1)) ++svgs;
  EXPECT_EQ(svgs, 6u) << "distribution, effects, phases, a trend per metric (3)";
  std::ofstream(dir / "report.html") << html;
  const std::string shot = (dir / "shot.png").string();
  const std::string cmd = "timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking "
                          "--disable-component-update --disable-sync --no-first-run --user-data-dir=" + (dir / "profile").string() +
                          " --screenshot=" + shot + " --window-size=1200,2000 file://" + (dir / "report.html").string() +
                          " >/dev/null 2>&1";
  std::system(cmd.c_str());
  ASSERT_TRUE(std::filesystem::exists(shot)) << "chromium wrote no screenshot: " << cmd;
  // The plots start below the title and verdict table (~250 px) and fill most of the page: the
  // tables alone ink well under 5% of the page, four plots with their boxes and lines far more.
  const double plots = std::stod(run(std::string(ABTEST_PYTHON) + " " + ABTEST_PNG_INK_SCRIPT + " " + shot + " 250 1900"));
  std::printf("[ measured ] non-white share of the plot region: %.3f\n", plots);
  EXPECT_GT(plots, 0.03) << "the screenshot " << shot << " looks blank where the plots should be";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace abtest::report
