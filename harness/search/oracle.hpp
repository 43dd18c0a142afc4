// The search's view of measurement: an abstract oracle (real runs or a simulation) and a memoising session.
#pragma once

#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "harness/search/toggle_spec.hpp"
#include "harness/stats/estimate.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::search {

struct comparison_request {
  double margin = stats::default_margin;  // the practical margin δ the verdict uses
  double alpha = 0.05;  // error level of the comparison's CI (a search splits its error budget over many)
  int attempt = 0;      // 0 the first time; 1 when asked again after INCONCLUSIVE: spend more rounds
  // One-sided equivalence: an adaptive comparison also stops once its always-valid CI rules out a
  // material effect (beyond ln(1 + margin)) on this side: +1 up, −1 down, 0 only decisive verdicts.
  // What a confirmation or a group test needs to know ("not slower") is then known; more rounds to
  // tell SAME from FASTER would be spent up to the cap for nothing.
  int settle_side = 0;
  // A confirmation after a factorial matrix: the variance of one difference as the matrix measured it
  // (at an upper confidence bound) and the mixture's scale at the effect it checks. With them the
  // sequence is sound from `min_rounds` on (stats::sequential_options::known_variance). NaN / 0: the
  // oracle's own plug-in, τ and min rounds.
  double known_variance = std::numeric_limits<double>::quiet_NaN();
  double tau = 0.0;
  int min_rounds = 0;
};

// Whether `e` settles a one-sided question (comparison_request::settle_side) at `margin`.
bool settled_on_side(const stats::log_estimate& e, int side, double margin);

// One A/B of `to` (candidate) against `from` (baseline) on the search's metric.
struct comparison {
  stats::verdict verdict = stats::verdict::inconclusive;
  stats::log_estimate estimate;  // ln(to / from) with its CI
  int rounds = 0;
  int runs = 0;  // benchmark invocations spent, warm-ups included
  // The estimate is the mean of `rounds` paired differences and its spread their sd, so it can join
  // a search's pooled fit; false for layout means (Welch) or a duet's crossover.
  bool paired = true;
  // Seconds of one run of each arm as measured (the samples' mean wall), NaN when not known.
  double from_run_s = std::numeric_limits<double>::quiet_NaN();
  double to_run_s = std::numeric_limits<double>::quiet_NaN();
};

struct matrix_result {
  std::vector<std::vector<double>> log_values;  // [config][round] = ln value, NaN when the sample failed
  int runs = 0;
  std::vector<double> run_s;  // [config] seconds of one run as measured; empty or NaN when not known
};

// What a search knows part-way, for its step lines: the terms decided so far ("DFA 19.3×"), and
// the worst case of the seconds its remaining steps can take (NaN when not known).
struct search_progress {
  std::vector<std::string> decided;
  double worst_left_s = std::numeric_limits<double>::quiet_NaN();
};

// What the integrator implements over the builder + executor + database (or the simulator does):
// the oracle owns the measurement protocol (rounds, RMIT order, adaptive stopping, checks). It answers
// for one metric, fixed at construction. A variant that cannot be built compares as INCONCLUSIVE with
// no CI and yields a NaN row in a matrix.
class oracle {
 public:
  virtual ~oracle() = default;
  virtual comparison compare(const levels& from, const levels& to, const comparison_request& request) = 0;
  virtual matrix_result run_matrix(const std::vector<levels>& configs, int rounds) = 0;
  // Told as the search decides terms and re-prices what is left; an oracle may show it.
  virtual void progress(const search_progress&) {}
};

// How a search asks: margin and error level of the comparison, and when an answer is final. An
// answer that is not settled is asked once more (attempt 1, more rounds); without a `settled`
// predicate, anything but INCONCLUSIVE is settled.
struct ask_options {
  double margin = stats::default_margin;
  double alpha = 0.05;
  std::function<bool(const comparison&)> settled;
  int settle_side = 0;  // comparison_request::settle_side
  // comparison_request's known_variance, tau and min_rounds, passed through.
  double known_variance = std::numeric_limits<double>::quiet_NaN();
  double tau = 0.0;
  int min_rounds = 0;
};

// A search's access to the oracle: memoises comparisons by canonical variant keys, asks again when an
// answer is not settled, and counts comparisons and runs spent.
class search_session {
 public:
  search_session(oracle& o, std::vector<toggle_spec> toggles) : oracle_(o), toggles_(std::move(toggles)) {}

  // The answer for from → to (memoised per pair, margin and α).
  const comparison& ask(const levels& from, const levels& to, const ask_options& how);
  // A fresh measurement, neither read from nor stored in the memo: for confirmations, which must not
  // reuse the evidence that produced the claim they check.
  comparison measure(const levels& from, const levels& to, const ask_options& how);
  matrix_result run_matrix(const std::vector<levels>& configs, int rounds);

  // Everything measured, as the pooled fit reads it (pooled_fit.hpp): each matrix's configurations
  // with their log values, and each comparison of paired rounds with its from and to.
  struct measured_matrix {
    std::vector<levels> configs;
    std::vector<std::vector<double>> log_values;  // [config][round], NaN when a sample failed
  };
  struct measured_comparison {
    levels from, to;
    stats::log_estimate estimate;  // mean, spread and rounds of the paired differences ln to − ln from
  };
  const std::vector<measured_matrix>& matrices() const { return matrices_; }
  const std::vector<measured_comparison>& measured() const { return measured_; }

  int comparisons() const { return comparisons_; }  // oracle calls, retries included
  int runs() const { return runs_; }
  int rounds() const { return rounds_; }  // rounds spent in comparisons (matrix rounds not included)
  int builds() const { return static_cast<int>(configurations_.size()); }  // distinct variants measured
  // σ̂ of one run's log value from the comparisons so far: their per-round differences pooled
  // (sd √2·σ); NaN before any comparison with two rounds.
  double pooled_sigma() const;
  double pooled_df() const { return df_; }  // its degrees of freedom, Σ (n − 1)
  // Seconds of the runs measured so far (warm-ups included), where the oracle reports run times.
  double seconds() const { return seconds_; }
  // Seconds of one run of `variant` as last measured; NaN when it has not been, or not timed.
  double run_seconds(const levels& variant) const;
  // A budget or an interrupt: once `stop` says so, a search starts nothing new and ends with what it
  // has decided (toggle_bisect.hpp).
  void set_stop(std::function<bool()> stop) { stop_ = std::move(stop); }
  bool out_of_time() const { return stop_ && stop_(); }
  void tell(const search_progress& p) { oracle_.progress(p); }
  const std::vector<toggle_spec>& toggles() const { return toggles_; }

 private:
  oracle& oracle_;
  std::vector<toggle_spec> toggles_;
  void saw(const levels& variant) { configurations_.insert(variant_key(toggles_, variant)); }

  std::map<std::tuple<std::string, std::string, double, double>, comparison> memo_;
  std::set<std::string> configurations_;
  std::vector<measured_matrix> matrices_;
  std::vector<measured_comparison> measured_;
  void timed(const levels& variant, double run_s, int runs);
  std::map<std::string, double> run_s_;  // by variant key
  double seconds_ = 0.0;
  std::function<bool()> stop_;
  double squares_ = 0.0;  // Σ (n − 1)·spread² over the comparisons
  double df_ = 0.0;       // Σ (n − 1)
  int comparisons_ = 0;
  int runs_ = 0;
  int rounds_ = 0;
};

}  // namespace abtest::search
