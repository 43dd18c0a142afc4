// What the search oracle reads off one experiment's arms (an arm_set_result): ln metric per arm and
// round, the seconds a run costs, the layouts' means, the analysed estimate, the metric's presence.
#pragma once

#include <string>
#include <vector>

#include "harness/experiment/oracle.hpp"
#include "harness/stats/estimate.hpp"

namespace abtest {

// ln metric per arm and round; NaN for a failed sample, a missing metric or an INVALID arm.
void fill_log_values(const std::string& metric, arm_set_result& r);

// Seconds one run of each arm costs the search: its samples' mean wall (warm-ups left out) plus
// each sample's share of the time the experiment spent around its processes (scheduling, the load
// check, the store), which on a busy host is most of a fast benchmark's cost. NaN for an arm with
// no sample that ran.
std::vector<double> arm_run_seconds(const arm_set_result& r);

// Seconds of every sample of a set of arms, warm-ups included (0 for one that never started).
double sample_seconds(const arm_set_result& r);

// A search asks for one metric throughout: when the benchmark's samples ran fine and none of them
// holds it, no number of rounds will, so the search stops at its first measurement with what the
// benchmark does report (a usage error), rather than spending every comparison up to its round cap.
void require_metric(const std::string& metric, const arm_set_result& r);

// The mean ln metric of each layout arm over its rounds, per variant group: [group][layout]. With
// layouts the replicates of a variant are its layouts (Kalibera & Jones 2013): a factorial fit over
// them carries the between-layout variance, as the verdicts do.
std::vector<std::vector<double>> layout_log_means(const arm_set_result& r);

// The estimate of the candidate (variant group 1) on `metric` as the analysis makes it at `confidence`:
// with layouts the two-level one, in a duet the crossover one. n = 0 when there is no such row or
// an arm is INVALID.
stats::log_estimate analysed_estimate(const arm_set_result& r, const std::string& metric, double confidence);

}  // namespace abtest
