// The search's oracle over real experiments: builds (or the scenario model), RMIT rounds through the
// scheduler, paired statistics, and every comparison stored as an experiment and a bisect step.
//
//   experiment_oracle o(store, m, ctx, settings, provider);   // provider: levels → built arm or nullopt
//   search::bisect_report r = search::bisect_toggles(o, specs, from, to, options);
//   o.steps()                                             // one per comparison, also in bisect_step
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/results_store.hpp"
#include "harness/builder/builder.hpp"
#include "harness/core/analysis.hpp"
#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/core/samples.hpp"
#include "harness/experiment/built_arms.hpp"
#include "harness/experiment/context.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/request.hpp"
#include "harness/experiment/variant_arms.hpp"
#include "harness/search/oracle.hpp"
#include "harness/search/scenario.hpp"

namespace abtest {

struct oracle_settings {
  std::string metric;              // "<bench>.<name>": the only benchmark run is <bench> …
  std::vector<std::string> benchmarks;  // … unless these are given (a matrix runs them all)
  std::string kind = "bisect";     // experiment kind of each comparison / matrix
  int fixed_rounds = 0;            // > 0: n rounds and a paired t CI; 0: adaptive (always-valid CI)
  int min_rounds = 10;             // adaptive: the sequence starts here (design §7) …
  int max_rounds = 50;             // … and stops here at the first attempt
  int retry_max_rounds = 100;      // attempt ≥ 1 (INCONCLUSIVE before): measured afresh up to this
  int warmups = 1;                 // per arm, recorded, not analysed
  std::map<std::string, std::string> params;
  std::uint64_t seed = 0;          // each experiment gets seed + its ordinal
  std::string simulate;            // scenario file (absolute) when the samples come from the model
  const search::scenario* scenario = nullptr;  // its parsed form; must outlive the oracle
  std::string parent;              // experiment that gets one bisect_step per comparison ("" = none)
  std::string command_line;
  // Layouts, duets and counts (design §6), for every experiment the oracle runs (the command checks the combinations):
  int layouts = 0;      // > 0: each variant runs as this many seeded relinks (fixed rounds only; needs a relinker)
  bool duet = false;    // an experiment of two variants runs each pair at once, one core each (fixed rounds only)
  bool counts = false;  // each variant's benchmarks counted once under Valgrind; reused by later experiments
  std::string pin;      // CPU list of the runs (the duet's two cores)
};

// One finished set of arms run as one experiment (a comparison or a matrix).
struct arm_set_result {
  std::string experiment_id;
  run_plan plan;
  std::vector<sample> samples;
  analysis_result analysis;  // of every sample: the verdicts stored with the experiment
  bool interrupted = false;  // SIGINT/SIGTERM stopped it (stored as incomplete)
  // [arm][round − 1] = ln metric, NaN when that sample failed, lacks the metric or the arm is INVALID.
  std::vector<std::vector<double>> log_values;
  int runs = 0;  // invocations, warm-ups included
};

// What a step of a search looked like, for the report and the database.
struct oracle_step {
  std::string from, to;            // variant keys (or commit labels)
  search::comparison result;
  std::string experiment_id;       // "" when nothing was measured
  std::string note;                // why skipped, or "identical binaries"
};

// What a caller hears as the search goes (bisect's step lines): a comparison or a matrix about to
// be measured, and each step once recorded. Any may be empty.
struct oracle_listener {
  std::function<void(const search::levels& from, const search::levels& to)> comparing;
  std::function<void(std::size_t configs, int rounds)> matrix;
  std::function<void(const oracle_step& step)> recorded;
  // What the search has decided so far and the worst case of the seconds it has left (design §7).
  std::function<void(const search::search_progress& p)> progress;
};

class experiment_oracle : public search::oracle {
 public:
  // nullopt = the variant cannot be built (compared as INCONCLUSIVE without a CI, a NaN matrix row).
  using arm_provider = std::function<std::optional<arm_plan>(const search::levels&)>;
  // With settings.layouts = K: the K layout arms of a built arm (layout_arms), `plan` giving the
  // benchmarks and the seed the layouts are drawn from.
  using relinker = std::function<std::vector<arm_plan>(const run_plan& plan, const arm_plan& arm, int k)>;

  experiment_oracle(db::results_store& store, const manifest& m, experiment_context ctx, oracle_settings settings,
                    arm_provider provider);

  search::comparison compare(const search::levels& from, const search::levels& to,
                             const search::comparison_request& request) override;
  search::matrix_result run_matrix(const std::vector<search::levels>& configs, int rounds) override;
  void progress(const search::search_progress& p) override {
    if (listener_.progress) listener_.progress(p);
  }
  // Whether Ctrl-C (SIGINT/SIGTERM) stopped one of its experiments: the search then ends with what it
  // has decided (search::search_options::stop).
  bool interrupted() const { return interrupted_; }

  // The same comparison on arms the caller built (commit bisection: the same variant from two trees).
  search::comparison compare_arms(const arm_plan& baseline, const arm_plan& candidate,
                                  const search::comparison_request& request);
  // Runs `arms` (arms[0] the baseline) for `rounds` fixed rounds as one experiment of `kind`,
  // analysed once and stored. With settings.counts and 0 rounds the arms are only counted (no
  // warm-ups, layouts or duet): its verdicts are the count rows.
  arm_set_result run_arms(std::vector<arm_plan> arms, int rounds, const std::string& kind,
                          const nlohmann::json& extra_config = nlohmann::json::object());

  const std::vector<oracle_step>& steps() const { return steps_; }
  int runs() const { return runs_; }
  // Seconds its samples took (with a scenario, the seconds its model says they stand for).
  double seconds() const { return seconds_; }
  void set_relinker(relinker r) { relink_ = std::move(r); }
  void set_listener(oracle_listener l) { listener_ = std::move(l); }
  // What the experiments left to say: counts that failed (warnings), matrices that could not run as duets.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  void record_step(oracle_step step);
  std::vector<double> paired_differences(const arm_set_result& r) const;
  // Creates the experiment and measures its rounds, without concluding it (adaptive rounds add more,
  // up to extra_config's `adaptive_cap`, which the plan's round_cap shows in the round counter).
  arm_set_result begin_arms(std::vector<arm_plan> arms, int rounds, const std::string& kind, const nlohmann::json& extra_config);
  // Runs the plan's rounds still missing, then analyses every sample once (the counts' verdicts
  // appended) and takes the ln values.
  void measure_missing(arm_set_result& r);
  // --counts: the experiment's variants counted under Valgrind, those counted by an earlier
  // experiment of this oracle (same programs, same benchmark) copied rather than run again.
  void count_arms(const arm_set_result& r);

  db::results_store& store_;
  const manifest& m_;
  experiment_context ctx_;
  oracle_settings s_;
  arm_provider provider_;
  std::int64_t machine_id_ = 0;
  relinker relink_;
  oracle_listener listener_;
  std::vector<oracle_step> steps_;
  std::vector<std::string> notes_;
  // The configurations of the last experiment when it was a matrix: a matrix that adds rounds to
  // it right after (search::matrix_decided) finds its binaries warm and runs without warm-ups.
  nlohmann::json last_matrix_;
  bool duet_noted_ = false;
  std::map<std::pair<std::string, std::string>, db::counts_record> counted_;  // (programs digest, benchmark)
  int experiments_ = 0;
  int runs_ = 0;
  bool interrupted_ = false;
  double seconds_ = 0.0;
};

// What every experiment of a search (bisect, matrix, noise-floor's A/A′) takes from the request:
// its params and seed, the scenario with --simulate (`scenario` must outlive the settings) and the
// command line. The caller sets what differs: kind, metric, benchmarks, warm-ups, rounds, evidence.
oracle_settings search_settings(const std::optional<search::scenario>& scenario, const measurement& mm,
                                const std::string& command_line);

// A metric's benchmark: the part before the first '.' ("proof.total_s" → "proof").
std::string benchmark_of(const std::string& metric);

// The search metric: `flag` when given (its benchmark must exist); else `proof.total_s` when there is
// a `proof` benchmark (or scenario metric), else the only `<bench>.total_s`; else a usage error
// asking for --metric (design §9).
std::string choose_metric(const manifest& m, const std::string& flag, const search::scenario* s);

}  // namespace abtest
