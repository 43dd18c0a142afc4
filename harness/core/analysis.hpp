// From recorded samples to verdicts: paired per-round log ratios, Holm across the experiment,
// INVALID for failed correctness checks (design §4, §7).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/manifest.hpp"
#include "harness/core/plan.hpp"
#include "harness/core/samples.hpp"
#include "harness/stats/estimate.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest {

// With --layouts: how much of a difference is where the linker put the code (design §6). Standard
// deviations are on the ln scale (0.01 ≈ 1%).
struct layout_split {
  int layouts_baseline = 0, layouts_candidate = 0;
  double sd_baseline = 0, sd_candidate = 0;  // of the layout effect
  double within_sd = 0;                      // of one run within a layout
  double share = 0;                          // the part of the estimate's variance from layouts, [0, 1]
};

struct verdict_row {
  int arm = 0;
  std::string variant;            // candidate key
  std::string baseline;           // baseline key
  std::string benchmark;
  std::string metric;             // "<bench>.<metric>"
  int n = 0;                      // paired rounds used
  double baseline_median = 0, candidate_median = 0;
  stats::log_estimate primary;    // paired t (fixed n) or the always-valid sequence (adaptive)
  stats::log_estimate robust;     // Hodges–Lehmann with the Wilcoxon signed-rank CI
  double p_adjusted = 1;          // Holm across every row of the experiment
  stats::verdict verdict = stats::verdict::inconclusive;
  bool immaterial = false;
  stats::metric_policy policy;    // the direction and margin it was judged by (run_plan::policy)
  std::string note;               // why INVALID, robust disagreement, too few rounds, ...
  // Set with layouts: `arm` is then the candidate's first layout arm, `n` the rounds used, and
  // `primary` the two-level estimate (layout means, Welch); there is no robust estimate.
  std::optional<layout_split> layouts;
};

struct arm_health {
  int ok = 0, failed = 0;         // measured (non-warm-up) samples
  std::string first_error;
  std::string invalid_reason;     // non-empty: INVALID (verified false, or digest ≠ baseline's)
  std::string backend;
};

struct analysis_result {
  std::vector<verdict_row> rows;
  std::vector<arm_health> arms;   // indexed like plan.arms
  bool any_invalid() const;
  bool any_failed() const;
  bool any_slower() const;        // a material SLOWER verdict of a timing (counts read HIGHER, not slower)
};

struct analysis_options {
  double confidence = 0.95;
  double alpha = 0.05;            // family-wise, Holm
  double tau = 0.02;              // adaptive mixing sd
};

// Process metrics that describe the invocation rather than the work: kept, shown by `show`, but
// outside the verdict family so they do not dilute Holm (wall_s and maxrss_mib stay in).
bool is_auxiliary_metric(const std::string& metric);

// The direction and margin of `metric` under the manifest's declarations (`better`, `margin`,
// `metrics`), else inferred from its name (stats::infer_better), else lower and `default_margin`: for
// commands that hold a manifest rather than a plan (bisect, history). A plan has run_plan::policy.
stats::metric_policy metric_policy_of(const manifest& m, const std::string& metric, double default_margin = stats::default_margin);
stats::better metric_direction(const manifest& m, const std::string& metric);

analysis_result analyze(const run_plan& plan, const std::vector<sample>& samples, const analysis_options& options = {});

// The verdicts of rows whose estimates are in (`primary`, `robust`, `n`): each row's policy from
// the plan (run_plan::policy), Holm across every row, a direction claimed only when it survives it, INVALID for an arm whose health says so, and the
// notes. `analyze` ends with it; `compare A B` calls it on its unpaired (Welch) rows, so both judge
// regressions by the same rule.
void judge(analysis_result& result, const run_plan& plan, const analysis_options& options = {});

// Against the manifest's reference figures (design §3): comparable only when the run's params
// equal the reference's; otherwise `comparable` is false and `why` says what differs.
struct reference_row {
  std::string metric;
  double reference = 0;
  std::string variant;
  int n = 0;
  double median = 0;
  stats::log_estimate estimate;   // one-sample t of ln x − ln reference
  stats::verdict verdict = stats::verdict::inconclusive;
  stats::metric_policy policy;
};
struct reference_result {
  bool present = false, comparable = false;
  std::string label, why;
  std::vector<reference_row> rows;
};
reference_result compare_to_reference(const manifest& m, const run_plan& plan, const std::vector<sample>& samples,
                                      const analysis_options& options = {});

}  // namespace abtest
