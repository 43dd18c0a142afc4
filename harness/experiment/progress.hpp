// Progress people can read: a build's steps as its tool counts them ([12/40]) with an ETA from the
// last build of the same variant, and each round of a schedule with an ETA from the invocations so
// far — as `progress` events (context.hpp) that a progress_printer shows.
#pragma once

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "harness/core/plan.hpp"
#include "harness/experiment/context.hpp"

namespace abtest {

// One step a build tool announced:
//   "[12/40] Building CXX object src/msm.o"   ninja: done 12, total 40
//   "[ 42%] Building CXX object src/msm.o"    make (CMake's Makefiles): done 42, total 100, percent
//   "   Compiling serde v1.0.197"            cargo: done 0, total 0 (cargo numbers nothing; count them)
struct build_step {
  int done = 0, total = 0;
  bool percent = false;
  std::string what;  // the rest of the line: "Building CXX object src/msm.o", "Compiling serde v1.0.197"
};
// nullopt for every other line ("ninja: no work to do.", compiler warnings, "-- Configuring done").
std::optional<build_step> parse_build_step(std::string_view line);

// Seconds left of a build that has run `elapsed_s` and reached `done` of `total` steps (0: unknown):
// what the last build of the variant took (`last_s`) less the time spent, while there is some left;
// past it (this build is a bigger one), the pace so far over the steps left; else nullopt.
std::optional<double> build_eta(std::optional<double> last_s, double elapsed_s, int done, int total);

// Seconds left of a schedule: the mean time per invocation so far (`spent_s` / `ran`) times the
// invocations `left`; nullopt before the first one.
std::optional<double> rounds_eta(double spent_s, int ran, int left);

// "45s", "3m07s", "2h05m"; "?" for nullopt or a negative value.
std::string format_eta(std::optional<double> seconds);

// Follows one build's output and turns its step lines into `build_step` events.
//
//   build_tracker t(ctx, "base", last_s);
//   builder.build(v, [&](std::string_view line) { t.line(line); });
class build_tracker {
 public:
  build_tracker(const experiment_context& ctx, std::string key, std::optional<double> last_s);
  void line(std::string_view text);

 private:
  const experiment_context& ctx_;
  std::string key_;
  std::optional<double> last_s_;
  std::chrono::steady_clock::time_point t0_;
  int counted_ = 0;       // cargo's steps, which it does not number
  int last_tenth_ = -1;   // the last tenth of the build shown as a milestone
};

// The "of how many" of a round counter: the plan's rounds when they are final ("3/10"); under
// adaptive stopping the cap it may stop before ("3/≤50"), also while an oracle's comparison grows
// its rounds one at a time (round_cap); the warm-ups for a warm-up.
std::string round_denominator(const run_plan& plan, bool warmup);

// Follows one execution of a schedule and turns each recorded invocation into a `round` event.
// `done` is how many of the plan's invocations were recorded before (a resumed experiment).
class round_tracker {
 public:
  round_tracker(const experiment_context& ctx, const run_plan& plan, int done);
  void recorded(const slot& s);

 private:
  const experiment_context& ctx_;
  const run_plan& plan_;
  int total_ = 0, done_ = 0, ran_ = 0;
  double spent_s_ = 0;
  std::chrono::steady_clock::time_point last_;
  std::pair<bool, int> last_round_{false, 0};  // (warm-up, round) of the last event
};

// Shows progress on a stream. On a terminal, build steps and rounds rewrite one line in place (\r)
// and everything else is a line of its own; elsewhere (a log, a pipe) only the milestones are
// shown, one plain line each, with no carriage return.
class progress_printer {
 public:
  progress_printer(std::FILE* out, bool terminal, std::size_t width = 110);
  ~progress_printer();
  progress_printer(const progress_printer&) = delete;
  progress_printer& operator=(const progress_printer&) = delete;

  void show(const progress& p);
  void clear();  // wipes the rewritten line, if one is shown

 private:
  std::FILE* out_;
  bool terminal_;
  std::size_t width_, shown_ = 0;
};

}  // namespace abtest
