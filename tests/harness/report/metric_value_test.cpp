// Tests of a metric's value as the reports write it (harness/report/metric_value.hpp): a rate with
// the unit its name carries, a time scaled, a plain number.
#include <gtest/gtest.h>

#include "harness/report/metric_value.hpp"

namespace abtest::report {
namespace {

TEST(metric_value, a_rate_shows_the_unit_its_name_carries) {
  EXPECT_EQ(format_metric_value("b.bench_kilobyte_specialized_mb_per_s", 6400), "6400 MB/s");
  EXPECT_EQ(format_metric_value("b.copy_gib_per_s", 12.5), "12.5 GiB/s");
  EXPECT_EQ(format_metric_value("b.copy_kb_per_s", 2124.3), "2124 KB/s");
  EXPECT_EQ(format_metric_value("b.copy_kib_per_s", 3), "3 KiB/s");
  EXPECT_EQ(format_metric_value("b.hash_ops_per_s", 1.5e6), "1.5e+06 ops/s");
  EXPECT_EQ(format_metric_value("gb.BM_checksum_items_per_second", 1.018e7), "1.018e+07 items/s");
  EXPECT_EQ(format_metric_value("gb.BM_copy_bytes_per_second", 4e9), "4e+09 B/s");
  // A bare rate (lines' `/s`) and a word that only ends like a scale.
  EXPECT_EQ(format_metric_value("b.events_per_s", 47), "47/s");
  EXPECT_EQ(format_metric_value("b.thumb_per_s", 47), "47/s");
}

TEST(metric_value, times_sizes_and_plain_numbers_are_unchanged) {
  EXPECT_EQ(format_metric_value("b.total_s", 1.5), "1.500 s");
  EXPECT_EQ(format_metric_value("b.total_s", 0.0123), "12.300 ms");
  EXPECT_EQ(format_metric_value("b.chain_1k_s", 160e-9), "160.0 ns");
  EXPECT_EQ(format_metric_value("b.maxrss_mib", 12.34), "12.3 MiB");
  EXPECT_EQ(format_metric_value("b.level3_mb", 42), "42");
  EXPECT_EQ(format_metric_value("b.ratio", 0.25), "0.25");
}

TEST(metric_value, rate_unit_and_report_cells) {
  EXPECT_EQ(rate_unit("b.copy_mb_per_s"), "MB/s");
  EXPECT_EQ(rate_unit("b.total_s"), std::nullopt);
  EXPECT_EQ(rate_unit("b.x_per_s"), "/s");
  // The markdown and HTML cells: a rate with its unit, the rest as the reports always wrote them.
  EXPECT_EQ(format_metric_cell("b.copy_mb_per_s", 6400.0), "6400 MB/s");
  EXPECT_EQ(format_metric_cell("b.total_s", 0.0123), "0.0123");
  EXPECT_EQ(format_metric_cell("b.total_s", std::nullopt), "—");
}

}  // namespace
}  // namespace abtest::report
