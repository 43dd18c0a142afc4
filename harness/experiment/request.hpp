// One experiment as a command asks for it (design §2): the manifest or the scenario, the variants,
// benchmarks, measurement and evidence — checked once, with the messages of design §9, and turned
// into a run_plan in one place. prepare_arms (prepare_arms.hpp) then builds its arms.
//
//   request_source src = load_request_source(flags.simulate, g.manifest);   // usage errors: exit 2
//   const measurement mm = resolve_measurement(flags.measure, src.m, rounds_rule::paired);  // commands/
//   const experiment_request q = make_request(std::move(src), mm, spec);
//   run_plan plan = plan_of(q);                                               // no arms yet
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/core/variant.hpp"
#include "harness/search/scenario.hpp"

namespace abtest {

// The measurement flags (--rounds, --margin, --param, --seed, --simulate, --jobs) checked and resolved
// against the manifest: --param applied to its params, the seed drawn when none was given (it is
// recorded with the experiment), the margin as a fraction.
struct measurement {
  int rounds = 0;
  double margin = 0.01;
  std::map<std::string, std::string> params;
  std::uint64_t seed = 0;
  std::string simulate;  // absolute, "" without --simulate
  int jobs = 0;
};

// Beyond the timings (design §6): seeded relinks per variant, both arms at once, Valgrind counts, and
// the CPUs the benchmarks run on.
struct evidence_flags {
  int layouts = 0;
  bool duet = false, counts = false;
  std::string pin{};
};

// What the evidence flags need, checked before anything is built (usage errors, exit 2): at least 2
// layouts; fixed rounds (not adaptive) for --layouts and --duet; a warm-up for --duet (it checks there
// that the benchmark uses one core) and two CPUs; Valgrind and no scenario for --counts; a valid --pin.
struct evidence_context {
  bool simulated = false;
  bool adaptive = false;  // the command's rounds are adaptive (run --adaptive, bisect without --rounds)
  int warmups = 1;
  std::string adaptive_fix;  // what to give instead, e.g. "give --rounds"
};
void check_evidence(const evidence_flags& f, const evidence_context& c);

// Where an experiment's programs come from: the scenario of --simulate FILE (design §12), whose
// manifest is made from it and nothing is built; else the manifest --manifest names (or the one
// found from the working folder).
struct request_source {
  std::optional<search::scenario> scenario;
  manifest m;
};
request_source load_request_source(const std::string& simulate, const std::string& manifest_flag);

// The request as the flags give it: variant SPECs and names, not yet checked against the manifest.
struct request_spec {
  std::string baseline = "base";       // a SPEC
  std::vector<std::string> toggles;    // one candidate, ID or ID=LEVEL each
  std::vector<std::string> variants;   // one candidate per SPEC
  std::vector<std::string> benchmarks;  // empty: every benchmark of the manifest
  bool adaptive = false;
  int max_rounds = 50;  // with adaptive: the cap
  int warmups = -1;     // -1: the first benchmark's
  std::vector<std::string> monitor_metrics;  // with adaptive: the metrics that must be decisive
  std::string bundle;   // --bundle DIR: built for another host, not measured here
  evidence_flags evidence;
};

// A request checked against its manifest: what prepare_arms builds and plan_of plans.
struct experiment_request {
  std::optional<search::scenario> scenario;  // with it nothing is built (design §12)
  manifest m;
  variant baseline;
  std::vector<variant> candidates;
  std::vector<std::string> benchmarks;  // resolved: every benchmark when none was named
  measurement measure;
  evidence_flags evidence;
  bool adaptive = false;
  int max_rounds = 50;
  int warmups = 1;
  std::vector<std::string> monitor_metrics;
  std::string bundle;

  bool simulated() const { return scenario.has_value(); }
  // The rounds asked for: the cap with adaptive, else --rounds (plan_of may round a duet's up).
  int requested_rounds() const { return adaptive ? max_rounds : measure.rounds; }
};

// The request of `spec` over `source`, every check about it made here (usage errors, exit 2): a
// candidate to compare, --max-rounds with --adaptive, the evidence flags, one candidate with --duet,
// valid SPECs, no candidate equal to the baseline, --bench names that exist.
experiment_request make_request(request_source source, const measurement& mm, const request_spec& spec);

// The run_plan of `q` without arms (prepare_arms adds them): benchmarks, params, rounds (a duet's
// rounded up to whole blocks of four, plan.hpp), warm-ups, seed, margin, metric rules and evidence.
run_plan plan_of(const experiment_request& q);

}  // namespace abtest
