// The gate's measurement plan: time the affected benchmarks, then confirm every metric that moved
// (SLOWER or FASTER, material) with a second, independent experiment — a fresh seed, so a fresh
// round order and, with layouts, fresh links — before it is reported (design §9.2).
//
// The experiments are handed in, so the decision is tested without builds:
//   gate::gate_result r = gate::run_gate(decisions, {.seed = 7}, [&](const gate::experiment_request& q) {
//     return measure(q.benchmarks, q.seed);          // abtest pr: an RMIT experiment of base vs head
//   });
//   for (const auto& c : r.changed) if (gate::reported(c)) …   // confirmed (or --no-confirm)
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/gate/affected.hpp"
#include "harness/stats/estimate.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::gate {

// One metric of one experiment, head against base.
struct metric_result {
  std::string metric;  // "<bench>.<name>"
  stats::verdict verdict = stats::verdict::inconclusive;
  bool immaterial = false;        // SLOWER/FASTER by less than the margin
  stats::log_estimate estimate;   // ln(head / base) and its CI
  double base_median = 0, head_median = 0;
  std::string note;
  stats::metric_policy policy;    // the direction and margin it was judged by (the manifest's, or inferred)
};

struct experiment_outcome {
  std::string id;  // the experiment in the store ("" when none was recorded)
  std::uint64_t seed = 0;
  std::vector<metric_result> metrics;
  int rounds = 0;              // measured rounds
  bool stopped_early = false;  // adaptive: every watched metric was decisive
  bool budget_ended = false;   // the wall budget stopped it before that
  bool failed = false;         // an invocation failed or timed out (the notes say which): exit 4
  std::vector<std::string> notes;
  // With --counts: the mechanism blocks (Valgrind's exact counts) of what moved, as markdown.
  std::vector<std::string> mechanisms;
};

// What the gate asks the measurer for.
struct experiment_request {
  std::vector<std::string> benchmarks;  // only these
  std::uint64_t seed = 0;
  int attempt = 0;  // 0: the first experiment; 1: the confirmation
};
using experiment_fn = std::function<experiment_outcome(const experiment_request&)>;

enum class confirm_mode { rerun, none };  // none: --no-confirm, to measure the false-alert rate without it
enum class confirmation { confirmed, unconfirmed, not_checked };
const char* to_string(confirmation c);

// A metric the first experiment read SLOWER or FASTER (material), and what the second made of it.
struct changed_metric {
  metric_result first;
  std::optional<metric_result> second;  // absent with --no-confirm (or when the rerun lacked it)
  confirmation state = confirmation::not_checked;
};

struct gate_options {
  confirm_mode confirm = confirm_mode::rerun;
  std::uint64_t seed = 0;  // of the first experiment; the confirmation's is confirmation_seed(seed)
};

struct gate_result {
  std::vector<benchmark_decision> benchmarks;  // every benchmark: timed or not, and why
  std::optional<experiment_outcome> first;     // absent when nothing was timed
  std::optional<experiment_outcome> second;    // the confirmation, when anything moved
  std::vector<changed_metric> changed;
  confirm_mode confirm = confirm_mode::rerun;

  std::vector<std::string> invalid_metrics() const;  // INVALID in the first experiment: failed checks
  bool any_failed() const;                           // a benchmark invocation of either experiment failed
  int regressions() const;                           // reported SLOWER
  int improvements() const;                          // reported FASTER
  int unconfirmed() const;
};

// A seed unrelated to `seed` for the second experiment (a step of the 64-bit LCG of Knuth/PCG),
// never equal to it.
std::uint64_t confirmation_seed(std::uint64_t seed);

// A change is reported when the confirmation agreed (the same verdict, SLOWER or FASTER), or when
// there was no confirmation to ask (--no-confirm); an unconfirmed one is shown as such, never as a
// regression.
bool reported(const changed_metric& c);
bool moved(const metric_result& m);

gate_result run_gate(std::vector<benchmark_decision> benchmarks, const gate_options& options, const experiment_fn& measure);

}  // namespace abtest::gate
