// The verdict tables of the markdown and HTML reports: the ratio's CI, regressions first then by the
// size of the effect, and sizes and counts read HIGHER / LOWER instead of SLOWER / FASTER.
#include <gtest/gtest.h>

#include <unistd.h>

#include "db/results_store.hpp"
#include "harness/report/exporter.hpp"
#include "report_fixture.hpp"

namespace abtest::report {
namespace {

db::verdict_record row(std::string variant, std::string metric, double ratio, db::verdict_kind verdict) {
  db::verdict_record v;
  v.experiment_id = "n-6";
  v.variant = std::move(variant);
  v.baseline = "base";
  v.metric = std::move(metric);
  v.n = 6;
  v.baseline_median = 1.0;
  v.candidate_median = ratio;
  v.ratio = ratio;
  v.ci_low = ratio * 0.99;
  v.ci_high = ratio * 1.01;
  v.p_value = v.p_adjusted = 0.001;
  v.verdict = verdict;
  return v;
}

class tables : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() / ("abtest-report-tables-" + std::to_string(::getpid()) + ".db");
    testing::write_fixture(path_);
    db::results_store store(path_);
    // Stored in name order (variant, metric); a reader wants the regressions first, largest effect first.
    store.replace_verdicts("n-6", std::vector{row("A1=4", "proof.maxrss_mib", 1.20, db::verdict_kind::slower),
                                              row("A1=4", "proof.total_s", 1.03, db::verdict_kind::slower),
                                              row("A1=4", "proof.synthesis_s", 0.70, db::verdict_kind::faster),
                                              row("A1=4", "proof.msm_a_s", 1.002, db::verdict_kind::same)});
  }
  void TearDown() override {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_.string() + suffix);
  }
  report_data load() {
    db::results_store store(path_, db::open_mode::read_only);
    return load_experiment(store, "n-6");
  }
  std::filesystem::path path_;
};

TEST_F(tables, verdicts_are_ordered_regressions_first_then_by_effect) {
  const auto r = load();
  ASSERT_EQ(r.verdicts.size(), 4u);
  EXPECT_EQ(r.verdicts[0].metric, "proof.maxrss_mib");   // regression, +20%
  EXPECT_EQ(r.verdicts[1].metric, "proof.total_s");      // regression, +3%
  EXPECT_EQ(r.verdicts[2].metric, "proof.synthesis_s");  // −30%
  EXPECT_EQ(r.verdicts[3].metric, "proof.msm_a_s");      // +0.2%
}

TEST_F(tables, markdown_carries_the_ci_and_says_higher_for_a_size) {
  const std::string md = make_exporter(format::markdown)->render(load());
  EXPECT_NE(md.find("| A1=4 | proof.maxrss_mib | 6 | 1 | 1.2 | +20.00% | [+18.80%, +21.20%] | 0.001 | HIGHER (worse) |"),
            std::string::npos) << md;
  EXPECT_NE(md.find("| FASTER |"), std::string::npos) << md;
  EXPECT_LT(md.find("| proof.maxrss_mib |"), md.find("| proof.synthesis_s |")) << md;
}

TEST_F(tables, html_carries_the_ci_and_says_higher_for_a_size) {
  const std::string html = make_exporter(format::html)->render(load());
  EXPECT_NE(html.find("<th>95% CI</th>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>[+18.80%, +21.20%]</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>HIGHER (worse)</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>SLOWER</td>"), std::string::npos) << html;
  EXPECT_LT(html.find("<td>proof.maxrss_mib</td>"), html.find("<td>proof.synthesis_s</td>"));
}

}  // namespace
}  // namespace abtest::report
