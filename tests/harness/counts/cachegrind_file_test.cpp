// Tests of the cachegrind output parser on hand-written files: exact totals and per-function sums.
#include "harness/counts/cachegrind_file.hpp"

#include <gtest/gtest.h>

namespace abtest::counts {
namespace {

// Two functions spread over several files (main partly inlined from a header, helper switching
// file with fi=/fe=), compressed names, a short count line, a comment and a blank line.
const char* const sample_file = R"(desc: I1 cache:         32768 B, 64 B, 8-way associative
desc: D1 cache:         32768 B, 64 B, 8-way associative
cmd: ./prog 10
events: Ir I1mr ILmr Dr D1mr DLmr
fl=a.cpp
fn=main
1 10 1 1 2 0 0
2 5
fl=b.h
fn=main
7 20 0 0 4 2 1
fn=helper
3 100 2 2 10 5 3
fi=(1) c.cpp
4 1 0 0 0 0 0
fe=b.h
5 0 0 0 0 0 0

fl=(1)
fn=(4) ns::f(int)
# a comment
9 7 0 0 0 0 0
fl=(1)
fn=(4)
10 3 0 0 1 1 1
summary: 146 3 3 17 8 5
)";

TEST(parse_cachegrind, totals_and_functions_are_exact_sums) {
  const cachegrind_profile p = parse_cachegrind(sample_file);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.events, (std::vector<std::string>{"Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr"}));
  EXPECT_EQ(p.command, "./prog 10");
  EXPECT_EQ(p.cache_config, "I1 cache: 32768 B, 64 B, 8-way associative; D1 cache: 32768 B, 64 B, 8-way associative");
  const std::map<std::string, count> totals = {{"Ir", 146}, {"I1mr", 3}, {"ILmr", 3}, {"Dr", 17},
                                               {"D1mr", 8}, {"DLmr", 5}, {"LLmr", 8}};
  EXPECT_EQ(p.totals, totals) << "summary line, plus LLmr = ILmr + DLmr; no DLmw, so no LLmw";

  ASSERT_EQ(p.functions.size(), 3u);
  const function_counts& main = p.functions.at("main");
  EXPECT_EQ(main.events.at("Ir"), 35u) << "a.cpp 10 + 5, inlined from b.h 20";
  EXPECT_EQ(main.events.at("Dr"), 6u);
  EXPECT_EQ(main.events.at("D1mr"), 2u);
  EXPECT_EQ(main.events.at("I1mr"), 1u) << "the short count line '2 5' has zeros after Ir";
  EXPECT_EQ(main.file, "b.h") << "the file holding most of its Ir";

  const function_counts& helper = p.functions.at("helper");
  EXPECT_EQ(helper.events.at("Ir"), 101u) << "fi= switches the file, not the function";
  EXPECT_EQ(helper.events.at("LLmr"), 5u) << "ILmr 2 + DLmr 3";
  EXPECT_EQ(helper.file, "b.h");

  const function_counts& f = p.functions.at("ns::f(int)");
  EXPECT_EQ(f.events.at("Ir"), 10u) << "both blocks of the compressed name (4)";
  EXPECT_EQ(f.events.at("D1mr"), 1u);
  EXPECT_EQ(f.file, "c.cpp") << "fl=(1) refers to the name fi=(1) defined";

  count ir = 0;
  for (const auto& [name, fc] : p.functions) ir += fc.events.at("Ir");
  EXPECT_EQ(ir, p.totals.at("Ir"));
}

// Callgrind's format: a header, compressed names in fn= / cfn= / cfi= / ob=, relative positions,
// and calls= lines whose next count line is the call's inclusive cost (not main's own).
const char* const callgrind_file = R"(# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 30152
cmd:  ./prog 10
part: 1

desc: I1 cache: 32768 B, 64 B, 8-way associative
desc: Timerange: Basic block 0 - 42
desc: Trigger: Program termination

positions: line
events: Ir Dr Bcm
summary: 130 21 2

ob=(1) /bin/prog
fl=(1) main.cpp
fn=(1) main
3 10 1
+2 5 0 1
cfi=(2) f.cpp
cfn=(2) f(int)
calls=4 7
* 100 20 1
-1 4

fl=(2)
fn=(2)
7 90 20 1
cob=(1)
cfn=(3) g
calls=1 50
9 0 0 0
cob=(1)
cfl=(1)
cfn=(1)
calls=1 3
8 999 999
+1 21
fn=(3)
50 0 0
totals: 130 21 2
)";

TEST(parse_cachegrind, callgrind_self_costs_leave_call_costs_out) {
  const cachegrind_profile p = parse_cachegrind(callgrind_file);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.command, "./prog 10");
  EXPECT_EQ(p.cache_config, "I1 cache: 32768 B, 64 B, 8-way associative") << "not the Timerange / Trigger lines";
  EXPECT_EQ(p.totals, (std::map<std::string, count>{{"Ir", 130}, {"Dr", 21}, {"Bcm", 2}}));
  ASSERT_EQ(p.functions.size(), 2u) << "g has no cost of its own";
  EXPECT_EQ(p.functions.at("main").events.at("Ir"), 19u) << "10 + 5 + 4, without the call's 100";
  EXPECT_EQ(p.functions.at("main").events.at("Bcm"), 1u);
  EXPECT_EQ(p.functions.at("main").file, "main.cpp");
  EXPECT_EQ(p.functions.at("f(int)").events.at("Ir"), 111u) << "90 + 21, without the recursive call's 999";
  EXPECT_EQ(p.functions.at("f(int)").file, "f.cpp") << "fl=(2) refers to the name cfi=(2) defined";
}

TEST(parse_cachegrind, a_name_that_only_starts_with_a_parenthesis_is_plain) {
  const cachegrind_profile p = parse_cachegrind("events: Ir\nfl=???\nfn=(below main)\n0 4\nsummary: 4\n");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.functions.at("(below main)").events.at("Ir"), 4u);
  EXPECT_EQ(p.functions.at("(below main)").file, "???");
}

TEST(parse_cachegrind, the_summary_must_match_the_lines) {
  const cachegrind_profile p = parse_cachegrind("events: Ir Dr\nfl=a\nfn=f\n1 5 1\nsummary: 6 1\n");
  EXPECT_NE(p.error.find("Ir add up to 5, but the summary says 6"), std::string::npos) << p.error;
}

TEST(parse_cachegrind, malformed_files_are_errors_with_a_line_number) {
  const std::pair<const char*, const char*> cases[] = {
      {"events: Ir\nfl=a\nfn=f\n1 5\n", "no summary: line"},
      {"fl=a\nfn=f\n1 5\nsummary: 5\n", "before the events: line"},
      {"events: Ir\nfl=a\n1 5\nsummary: 5\n", "line 3: a count line before any fn= line"},
      {"events: Ir\nfl=a\nfn=f\n1 5 6\nsummary: 5\n", "2 counts for 1 events"},
      {"events: Ir\nfl=a\nfn=(7)\n1 5\nsummary: 5\n", "function id never defined"},
      {"events: Ir\nfl=a\nfn=f\n1 x\nsummary: 5\n", "is not a line number followed by counts"},
      {"events: Ir\nfl=a\nfn=f\n1 5\nsummary: 5 5\n", "does not hold one count per event"},
      {"hello world\n", "unrecognised line"},
      {"", "no events: line"},
  };
  for (const auto& [text, expected] : cases) {
    const cachegrind_profile p = parse_cachegrind(text);
    EXPECT_NE(p.error.find(expected), std::string::npos) << "input:\n" << text << "\nerror: " << p.error;
    EXPECT_TRUE(p.functions.empty() && p.totals.empty());
  }
}

}  // namespace
}  // namespace abtest::counts
