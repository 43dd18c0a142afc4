// Progress people can read: the build tools' step lines, the ETA arithmetic, which events deserve
// a line of their own in a log, and what the printer writes on a terminal and elsewhere.
#include "harness/experiment/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace abtest {
namespace {

TEST(parse_build_step, reads_ninja_make_and_cargo_steps) {
  const auto ninja = parse_build_step("[12/40] Building CXX object src/CMakeFiles/msm.dir/pippenger.cpp.o");
  ASSERT_TRUE(ninja);
  EXPECT_EQ(ninja->done, 12);
  EXPECT_EQ(ninja->total, 40);
  EXPECT_FALSE(ninja->percent);
  EXPECT_EQ(ninja->what, "Building CXX object src/CMakeFiles/msm.dir/pippenger.cpp.o");

  const auto make = parse_build_step("[  7%] Linking CXX static library libwork.a");
  ASSERT_TRUE(make);
  EXPECT_EQ(make->done, 7);
  EXPECT_EQ(make->total, 100);
  EXPECT_TRUE(make->percent);
  EXPECT_EQ(make->what, "Linking CXX static library libwork.a");

  const auto cargo = parse_build_step("   Compiling serde v1.0.197\r");
  ASSERT_TRUE(cargo);
  EXPECT_EQ(cargo->done, 0);
  EXPECT_EQ(cargo->total, 0);
  EXPECT_EQ(cargo->what, "Compiling serde v1.0.197");
}

TEST(parse_build_step, leaves_every_other_line_alone) {
  for (const char* line : {"ninja: no work to do.", "-- Configuring done (0.2s)", "FAILED: src/work.o",
                           "src/work.cpp:3:2: error: #error planted", "[3/7]", "[a/7] Building", "[3/7]Building",
                           "    Finished `release` profile [optimized] target(s) in 0.31s", ""})
    EXPECT_FALSE(parse_build_step(line)) << line;
}

TEST(build_eta, counts_down_from_the_last_build_then_follows_the_pace) {
  // The last build took 100 s: after 30 s, 70 s are left, whatever the step.
  EXPECT_DOUBLE_EQ(*build_eta(100.0, 30.0, 3, 40), 70.0);
  EXPECT_DOUBLE_EQ(*build_eta(100.0, 30.0, 0, 0), 70.0);
  // Past it, this build is a bigger one: the pace so far, 40 s for 10 of 40 steps → 120 s.
  EXPECT_DOUBLE_EQ(*build_eta(30.0, 40.0, 10, 40), 120.0);
  // No record: the pace alone.
  EXPECT_DOUBLE_EQ(*build_eta(std::nullopt, 10.0, 5, 20), 30.0);
  EXPECT_DOUBLE_EQ(*build_eta(std::nullopt, 10.0, 20, 20), 0.0);
  // Nothing to go on: no record and no count (cargo), or no step done yet.
  EXPECT_FALSE(build_eta(std::nullopt, 10.0, 0, 0));
  EXPECT_FALSE(build_eta(std::nullopt, 10.0, 0, 40));
  EXPECT_FALSE(build_eta(30.0, 40.0, 3, 0));
}

TEST(rounds_eta, is_the_mean_invocation_time_times_those_left) {
  EXPECT_DOUBLE_EQ(*rounds_eta(10.0, 5, 20), 40.0);
  EXPECT_DOUBLE_EQ(*rounds_eta(10.0, 5, 0), 0.0);
  EXPECT_DOUBLE_EQ(*rounds_eta(10.0, 5, -3), 0.0);
  EXPECT_FALSE(rounds_eta(0.0, 0, 12));
}

TEST(format_eta, uses_seconds_minutes_and_hours) {
  EXPECT_EQ(format_eta(0.0), "0s");
  EXPECT_EQ(format_eta(59.4), "59s");
  EXPECT_EQ(format_eta(59.6), "1m00s");
  EXPECT_EQ(format_eta(187.0), "3m07s");
  EXPECT_EQ(format_eta(7500.0), "2h05m");
  EXPECT_EQ(format_eta(std::nullopt), "?");
  EXPECT_EQ(format_eta(-1.0), "?");
}

struct recorder {
  std::vector<progress> events;
  experiment_context ctx;
  explicit recorder(int verbose = 0) {
    ctx.verbose = verbose;
    ctx.on_progress = [this](const progress& p) { events.push_back(p); };
  }
  std::vector<std::string> milestones(progress::kind what) const {
    std::vector<std::string> out;
    for (const auto& e : events)
      if (e.what == what && e.milestone) out.push_back(e.text);
    return out;
  }
};

TEST(build_tracker, shows_each_step_and_marks_the_first_each_tenth_and_the_last) {
  recorder r;
  build_tracker t(r.ctx, "A1=4", std::nullopt);
  t.line("$ cmake --build /b --target synth-bench");
  for (int i = 1; i <= 20; ++i) t.line("[" + std::to_string(i) + "/20] Building CXX object o" + std::to_string(i) + ".o");
  t.line("ninja: build stopped: subcommand failed.");
  ASSERT_EQ(r.events.size(), 20u);  // one per step; other lines say nothing without -v
  EXPECT_EQ(r.events[3].text.rfind("building A1=4 [4/20] · ETA ", 0), 0u) << r.events[3].text;
  EXPECT_NE(r.events[3].text.find(" · Building CXX object o4.o"), std::string::npos) << r.events[3].text;
  // Steps 1, 2, 4, 6, …, 20: the first, then the first of each new tenth (two steps a tenth).
  const auto lines = r.milestones(progress::kind::build_step);
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines.front().rfind("building A1=4 [1/20]", 0), 0u);
  EXPECT_EQ(lines[1].rfind("building A1=4 [2/20]", 0), 0u);
  EXPECT_EQ(lines.back().rfind("building A1=4 [20/20]", 0), 0u);
}

TEST(build_tracker, takes_the_eta_from_the_last_build_and_counts_cargo_crates) {
  recorder r;
  build_tracker t(r.ctx, "base", 100.0);
  for (int i = 1; i <= 12; ++i) t.line("   Compiling crate" + std::to_string(i) + " v0.1.0 (/src)");
  ASSERT_EQ(r.events.size(), 12u);
  // 100 s last time, a moment spent: about 1m40s left.
  EXPECT_EQ(r.events[0].text.rfind("building base [1] · ETA 1m", 0), 0u) << r.events[0].text;
  EXPECT_NE(r.events[0].text.find("Compiling crate1 v0.1.0"), std::string::npos);
  const auto lines = r.milestones(progress::kind::build_step);
  ASSERT_EQ(lines.size(), 2u);  // crates 1 and 10: cargo says how many are done, never of how many
  EXPECT_EQ(lines[1].rfind("building base [10]", 0), 0u);
}

TEST(build_tracker, passes_the_tools_output_on_with_verbose) {
  recorder r(1);
  build_tracker t(r.ctx, "base", std::nullopt);
  t.line("-- Configuring done");
  t.line("[1/1] Linking CXX executable bench");
  ASSERT_EQ(r.events.size(), 3u);
  EXPECT_EQ(r.events[0].what, progress::kind::output);
  EXPECT_EQ(r.events[0].text, "-- Configuring done");
  EXPECT_EQ(r.events[1].what, progress::kind::output);
  EXPECT_EQ(r.events[2].what, progress::kind::build_step);
}

run_plan two_arms(int warmups, int rounds, bool adaptive = false) {
  run_plan plan;
  plan.arms = {arm_plan{"base", {}, "baseline", {}, {}, std::nullopt, {}, {}},
               arm_plan{"A1=4", {{"A1", "4"}}, "candidate", {}, {}, std::nullopt, {}, {}}};
  plan.benchmarks = {"proof"};
  plan.warmups = warmups;
  plan.rounds = rounds;
  plan.adaptive = adaptive;
  return plan;
}

TEST(round_tracker, says_round_arm_benchmark_and_eta_and_marks_each_rounds_first_sample) {
  recorder r;
  const run_plan plan = two_arms(1, 3);
  round_tracker t(r.ctx, plan, 0);
  for (const bool warmup : {true, false})
    for (int round = 1; round <= (warmup ? 1 : 3); ++round)
      for (int arm : {1, 0}) t.recorded(slot{arm, "proof", round, warmup, arm == 1 ? 0 : 1});
  ASSERT_EQ(r.events.size(), 8u);
  EXPECT_EQ(r.events[0].text.rfind("warm-up 1/1 · A1=4 · proof · ETA ", 0), 0u) << r.events[0].text;
  EXPECT_EQ(r.events[3].text.rfind("round 1/3 · base · proof · ETA ", 0), 0u) << r.events[3].text;
  EXPECT_EQ(r.events.back().text, "round 3/3 · base · proof · ETA 0s");  // nothing left
  const auto lines = r.milestones(progress::kind::round);
  ASSERT_EQ(lines.size(), 4u);  // the warm-up round and rounds 1–3, one line each
  EXPECT_EQ(lines[1].rfind("round 1/3 · A1=4", 0), 0u);
}

TEST(round_tracker, counts_what_was_recorded_before_and_bounds_an_adaptive_eta) {
  recorder r;
  const run_plan plan = two_arms(0, 50, true);
  round_tracker t(r.ctx, plan, 20);  // resumed after 10 rounds
  t.recorded(slot{0, "proof", 11, false, 0});
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].text.rfind("round 11/≤50 · base · proof · ETA ≤ ", 0), 0u) << r.events[0].text;
}

TEST(round_tracker, a_comparison_that_grows_its_rounds_counts_against_its_cap) {
  // The search oracle's adaptive comparison: 39 rounds so far, the plan grown to 39 of at most 50.
  // It read "round 39/39" before, as if the comparison were at its end.
  recorder r;
  run_plan plan = two_arms(0, 39);
  plan.round_cap = 50;
  round_tracker t(r.ctx, plan, 76);
  t.recorded(slot{1, "proof", 39, false, 0});
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].text.rfind("round 39/≤50 · A1=4 · proof · ETA ≤ ", 0), 0u) << r.events[0].text;
}

TEST(round_denominator, final_rounds_a_cap_and_warm_ups) {
  EXPECT_EQ(round_denominator(two_arms(2, 10), false), "10");
  EXPECT_EQ(round_denominator(two_arms(2, 10), true), "2");
  EXPECT_EQ(round_denominator(two_arms(2, 50, true), false), "≤50");
}

// What the printer wrote to a stream, by writing to a memory stream.
struct memory_stream {
  char* data = nullptr;
  size_t size = 0;
  std::FILE* f = open_memstream(&data, &size);
  std::string text() {
    std::fflush(f);
    return {data, size};
  }
  ~memory_stream() {
    std::fclose(f);
    std::free(data);
  }
};

TEST(progress_printer, writes_only_milestones_as_plain_lines_outside_a_terminal) {
  memory_stream out;
  {
    progress_printer p(out.f, false);
    p.show({progress::kind::build_start, "building base in /b", true});
    p.show({progress::kind::build_step, "building base [1/3] · a.o", true});
    p.show({progress::kind::build_step, "building base [2/3] · b.o", false});
    p.show({progress::kind::build_done, "  built 1.0 s", true});
    p.show({progress::kind::round, "round 1/2 · base · proof · ETA 3s", true});
    p.show({progress::kind::round, "round 1/2 · A1 · proof · ETA 2s", false});
    p.show({progress::kind::idle, "", true});
  }
  EXPECT_EQ(out.text(), "building base in /b\nbuilding base [1/3] · a.o\n  built 1.0 s\nround 1/2 · base · proof · ETA 3s\n");
}

TEST(progress_printer, rewrites_one_line_on_a_terminal_and_wipes_it_before_anything_else) {
  memory_stream out;
  {
    progress_printer p(out.f, true, 12);
    p.show({progress::kind::round, "round 1/2 · base", false});  // 16 columns, cut to 12
    p.show({progress::kind::round, "round 2/2", true});          // 9 columns, padded over the 12
    p.show({progress::kind::note, "  note: x", true});
    p.show({progress::kind::round, "r", false});
  }  // the destructor wipes the last rewritten line
  EXPECT_EQ(out.text(), "\rround 1/2 · "
                        "\rround 2/2   "
                        "\r         \r  note: x\n"
                        "\rr"
                        "\r \r");
}

}  // namespace
}  // namespace abtest
