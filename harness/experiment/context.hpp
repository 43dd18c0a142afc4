// What an experiment needs from whoever runs it — how much to say and where its progress goes — in
// place of the command line's options, so the library runs the same under the CLI and in a test.
//
//   experiment_context ctx;                                  // silent
//   ctx.on_progress = [&](const progress& p) { lines.push_back(p.text); };
//   execute(store, m, plan, id, source, samples, ctx);
#pragma once

#include <functional>
#include <string>

namespace abtest {

// One thing an experiment reports while it works. `text` is the line as shown:
//   building base in /src/.abtest/build/base (last build 41.0 s)      build_start
//   building base [12/40] · ETA 31s · Building CXX object src/msm.o     build_step
//     built 41.3 s, 12 compiled, 28 from the cache, 2 linked           build_done
//   counting A1=4 · synth under Valgrind (2/4)                         counts (--counts; its result too)
//   confirmation r-…: 1a2b3c4d5e6f × 0f9e8d7c6b5a on synth, seed 7      experiment (one of a gate's starts)
//   round 3/10 · A1=4 · proof · ETA 1m02s                              round
//     note: 2 untracked file(s) are not in the worktrees …             note (a warning: shown even with --json)
//   <a line of the build tool's own output>                            output (only with verbose > 0)
//   (nothing)                                                          idle: the rewritten line's work is over
// `milestone` marks what deserves a line of its own where nothing can be rewritten in place (a log,
// a pipe): every build start, end, note and output line; a build's first step, its last and the
// first to pass each tenth of it; the first sample of each round.
struct progress {
  enum class kind { build_start, build_step, build_done, counts, experiment, round, note, output, idle };
  kind what = kind::note;
  std::string text;
  bool milestone = true;
};

struct experiment_context {
  int verbose = 0;  // > 0: the build tool's output too, line by line as it arrives (`output`)
  std::function<void(const progress&)> on_progress = [](const progress&) {};
  // Asked when a round (a warm-up round too) has every sample; true stops the schedule there, as an
  // interruption does (the experiment stays incomplete, to resume): a bundle's --budget-s. Empty: never.
  std::function<bool()> stop_between_rounds;

  void report(progress::kind what, std::string text, bool milestone = true) const {
    if (on_progress) on_progress(progress{what, std::move(text), milestone});
  }
};

}  // namespace abtest
