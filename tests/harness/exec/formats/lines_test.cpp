// Tests of format `lines`: several named patterns, units, rates and thousands separators, on zstd's
// own benchmark output (tests/fixtures/formats/zstd/make.sh) and on crafted lines.
#include <gtest/gtest.h>

#include "harness/exec/format.hpp"
#include "tests/harness/exec/formats/fixture.hpp"

namespace abtest::exec {
namespace {

// What a manifest gives for zstd -b: a fixed metric name per pattern, the value and its MB/s.
const nlohmann::json zstd_patterns = {
    {"patterns",
     {{"compress", R"(#.*\(x[0-9.]+\),\s*([0-9.,]+) ([A-Za-z]*/s),)"},
      {"decompress", R"(#.*MB/s,\s*([0-9.,]+) ([A-Za-z]*/s))"},
      {"ratio", R"(#.*\(x([0-9.]+)\))"}}}};

TEST(lines_format, zstd_speeds_in_mb_per_s_from_what_the_terminal_shows) {
  // zstd.txt holds `\r` progress updates; the result is what overwrites them:
  // " 1#Synthetic 50%     :  10000000 ->   3154228 (x3.170),   42.6 MB/s,  194.7 MB/s".
  const auto p = parse_output("lines", "zstd", zstd_patterns, format_input{"", test::fixture("zstd/zstd.txt"), {}});
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("zstd.compress_mb_per_s"), 42.6);
  EXPECT_DOUBLE_EQ(p.metrics.at("zstd.decompress_mb_per_s"), 194.7);
  EXPECT_DOUBLE_EQ(p.metrics.at("zstd.ratio"), 3.170);
  EXPECT_EQ(p.metrics.size(), 3u);
}

TEST(lines_format, zstd_quiet_levels_named_by_group) {
  // zstd-q.txt: "-2      3129137 (3.196)  29.79 MB/s  171.2 MB/s  Synthetic 50%" per level.
  const nlohmann::json options = {{"pattern", R"(^-(\d+)\s+[0-9]+ \([0-9.]+\)\s+([0-9.,]+) ([A-Za-z]*/s))"}};
  const auto p = parse_text("lines", "zstd", test::fixture("zstd/zstd-q.txt"), options);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("zstd.2_mb_per_s"), 29.79);
  EXPECT_EQ(p.metrics.size(), 3u);
}

TEST(lines_format, every_time_unit_people_print_becomes_seconds) {
  const nlohmann::json options = {{"pattern", R"(T: (\w+) ([0-9.,]+) ?(\S+))"}};
  const auto p = parse_text("lines", "b",
                            "T: a 1,500 ps\nT: b 2 ns\nT: c 3 us\nT: d 4 µs\nT: e 5 μs\nT: f 6 ms\nT: g 7 s\n"
                            "T: h 1.5 min\nT: i_s 1,234,567.5 ms\n",
                            options);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("b.a_s"), 1.5e-9);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.b_s"), 2e-9);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.c_s"), 3e-6);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.d_s"), 4e-6);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.e_s"), 5e-6);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.f_s"), 6e-3);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.g_s"), 7);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.h_s"), 90);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.i_s"), 1234.5675);  // already ends in _s: no second suffix
}

TEST(lines_format, rates_keep_their_scale_and_end_in_per_s) {
  const nlohmann::json options = {{"pattern", R"(R: (\w+) ([0-9.,]+) (\S+))"}};
  const auto p = parse_text("lines", "b",
                            "R: a 1,024.5 MB/s\nR: b 2 MiB/s\nR: c 3 GB/s\nR: d 4 GiB/s\nR: e 5 KB/s\nR: f 6 ops/s\n"
                            "R: g 7 /s\n",
                            options);
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("b.a_mb_per_s"), 1024.5);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.b_mib_per_s"), 2);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.c_gb_per_s"), 3);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.d_gib_per_s"), 4);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.e_kb_per_s"), 5);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.f_ops_per_s"), 6);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.g_per_s"), 7);
  for (const auto& [name, _] : p.metrics) EXPECT_TRUE(name.ends_with("_per_s")) << name;
}

TEST(lines_format, names_that_meet_after_sanitising_are_bad_output_not_a_median) {
  const auto p = parse_lines("b", R"(T: (\S+) ([0-9.]+))", "T: a-b 1\nT: a.b 2\n");
  EXPECT_EQ(p.status, sample_status::bad_output);
  EXPECT_NE(p.error.find("'a-b' and 'a.b' both become the metric b.a_b"), std::string::npos) << p.error;
  // The same name on several lines is one benchmark measured several times: its median.
  const auto same = parse_lines("b", R"(T: (\S+) ([0-9.]+))", "T: a-b 1\nT: a-b 3\nT: a-b 2\n");
  ASSERT_EQ(same.status, sample_status::ok) << same.error;
  EXPECT_DOUBLE_EQ(same.metrics.at("b.a_b"), 2);
}

TEST(lines_format, a_pattern_and_its_literal_prefix_still_match_alternatives) {
  // "A|B" has no common prefix: lines starting with B must not be skipped.
  const auto p = parse_lines("b", R"(A: (\w+) ([0-9]+)|B: (\w+) ([0-9]+))", "B: x 1\nA: y 2\n");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_TRUE(p.metrics.contains("b.y"));
}

TEST(lines_format, a_line_of_a_million_characters_is_read_in_linear_time) {
  // libstdc++'s std::regex, which `lines` used before RE2, recursed per character and overflowed
  // the stack on such a line: SIGSEGV in abtest itself. A progress bar or a dumped blob prints one.
  const std::string blob(1'000'000, 'a');
  const auto p = parse_lines("b", R"(TIMING: (\w+) ([0-9.,]+) (ms))", "TIMING: x" + blob + " 1.5 ms\nTIMING: y 2 ms\n");
  ASSERT_EQ(p.status, sample_status::ok) << p.error;
  EXPECT_DOUBLE_EQ(p.metrics.at("b.x" + blob + "_s"), 1.5e-3);
  EXPECT_DOUBLE_EQ(p.metrics.at("b.y_s"), 2e-3);
}

TEST(lines_format, what_re2_cannot_run_is_named_with_the_fix) {
  // Lookaround and backreferences are ECMAScript, not RE2: the error says so rather than a crash.
  const auto* row = find_output_format("lines");
  for (const char* pattern : {R"(T: (\w+)(?= ) ([0-9]+))", R"((\w+) (\1) ([0-9]+))"}) {
    try {
      row->options({{"pattern", pattern}});
      ADD_FAILURE() << pattern << " was accepted";
    } catch (const format_key_error& e) {
      EXPECT_EQ(e.key, "pattern");
      EXPECT_NE(e.what.find("is not a valid RE2 regular expression"), std::string::npos) << e.what;
      EXPECT_NE(e.fix.find("no lookaround or backreferences"), std::string::npos) << e.fix;
    }
    const auto p = parse_lines("b", pattern, "T: a 1\n");
    EXPECT_EQ(p.status, sample_status::bad_output);
    EXPECT_NE(p.error.find(std::string("pattern '") + pattern + "' is not a valid RE2"), std::string::npos) << p.error;
  }
}

TEST(lines_format, options_are_validated_by_the_row) {
  const auto* row = find_output_format("lines");
  ASSERT_NE(row, nullptr);
  EXPECT_THROW(row->options(nlohmann::json::object()), format_key_error);
  EXPECT_THROW(row->options({{"patterns", {{"x", "no group"}}}}), format_key_error);
  EXPECT_THROW(row->options({{"patterns", {{"a b", "([0-9]+)"}}}}), format_key_error);
  EXPECT_THROW(row->options({{"pattern", "(unbalanced"}}), format_key_error);
  try {
    row->options({{"pattern", "T: \\w+"}});
    FAIL();
  } catch (const format_key_error& e) {
    EXPECT_EQ(e.key, "pattern");
    EXPECT_NE(e.what.find("capture groups"), std::string::npos) << e.what;
  }
  EXPECT_EQ(row->options(zstd_patterns), zstd_patterns);
  const auto unit = parse_lines("b", R"(T: (\w+) ([0-9.]+) (\S+))", "T: a 1 fortnights/s");
  EXPECT_EQ(unit.status, sample_status::bad_output);
}

}  // namespace
}  // namespace abtest::exec
