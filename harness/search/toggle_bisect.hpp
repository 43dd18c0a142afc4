// Toggle bisection: which toggles (and pairs) make `to` slower or faster than `from` (design §7, §9).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/search/effects.hpp"
#include "harness/search/oracle.hpp"
#include "harness/search/price.hpp"
#include "harness/search/toggle_spec.hpp"

namespace abtest::search {

struct search_options {
  double margin = stats::default_margin;  // culprits must exceed ln(1 + margin)
  // Margin of the group-testing comparisons: "is this subset at least this much slower?" The smallest
  // culprit worth finding; twice the reporting margin keeps an A/A half decidable (SAME) in ~30-50
  // rounds at 2% noise instead of never.
  double search_margin = 0.02;
  double alpha = 0.05;         // family-wise level of the factorial screen (Holm)
  int matrix_rounds = 0;       // RMIT rounds of a factorial matrix; 0 = as the plan sizes it (price.hpp)
  design_choice design = design_choice::automatic;  // --design: auto picks the cheapest (plan_search)
  unit_costs costs;            // what a build and a run cost, and the noise expected before any is measured
  bool confirm = true;         // run the two confirmation A/Bs per culprit
  std::vector<std::string> exclude;  // toggle ids left out (inert on this host, failed builds)
  // --budget-s and Ctrl-C: once this says so, the search starts no new step (a matrix adds no
  // batch, no confirmation starts) and ends with what it has decided (bisect_report::stopped).
  std::function<bool()> stop;
};

struct culprit {
  std::vector<std::string> toggles;  // factor names as in variant keys, in key order (by id): {"A1=4"}, {"A1=4", "A10"}
  // ln ratio attributed to the term (0/1 coding) and its 95% CI: after a factorial, from every run
  // of the search in one fit (pooled_fit.hpp); after group testing, the A/B that isolated it.
  double effect = 0.0;
  double ci_low = 0.0;
  double ci_high = 0.0;
  // A main effect: the two A/Bs of design §7, measured afresh: to vs to−C is not in the culprit's
  // direction, and from+C vs from is. A pair: heredity (both of its toggles supported terms of their
  // own) or else the four cells' interaction, significant and of the same sign — whichever way it
  // pulls. false = a candidate that did not hold up (report it as such, not as a culprit); empty when
  // confirmations were not run.
  // A term the matrix decided (its always-valid interval clear of the margin) is not measured
  // again: confirmed, support "matrix".
  std::optional<bool> confirmed;
  std::string support;  // "matrix", "A/Bs", "heredity", "four cells", "undecided" (empty when not confirmed)
};

struct bisect_report {
  std::string from_key;
  std::string to_key;
  comparison overall;                // to vs from
  std::string method;                // "factorial full 2^3", "factorial 2^(5-1) E=ABCD", "group testing", "none"
  search_plan plan;                  // the design run and its expected price (after the overall A/B's noise)
  std::vector<culprit> culprits;
  // Ended by options.stop before it was done: `undecided` holds the terms it had not decided either
  // way (candidates not yet confirmed, and terms whose interval is neither clear of the margin nor
  // inside it), with what every run says of them.
  bool stopped = false;
  std::vector<culprit> undecided;
  std::vector<std::string> skipped;  // toggle ids: excluded ones that differ, then ones left unresolved
  int comparisons = 0;               // oracle A/B calls, retries and confirmations included
  int runs = 0;                      // benchmark invocations spent, matrix included
  int builds = 0;                    // distinct configurations measured
  double run_seconds = 0.0;          // seconds of the runs, where the oracle timed them (0 otherwise)
  price used;                        // runs and builds at the unit costs (the wall they stand for)
  // The full 2^k factorial that reaches the same 95% CI half-width on the culprits' effects
  // (full_factorial_at): the honest comparison. `half_width` and `se_factor` are those of the supported
  // term that needs the most runs of the factorial — the largest c/h — so that it matches every
  // culprit's precision; without culprits, the narrowest main effect's or the overall
  // A/B's; `sigma` the noise measured (the pooled fit's residual after a factorial, else the
  // comparisons' pooled).
  price full_factorial;
  double half_width = 0.0;
  double se_factor = 2.0;  // that term's SE·√N/σ̂ (full_factorial_at's c): 2, more for a main effect beside its pair
  double sigma = 0.0;
  // Kept for the JSON contract: 2^k configurations at the same number of rounds: the matrix's on the
  // factorial path, the mean rounds per comparison on the group-testing path.
  long long full_matrix_runs = 0;
  std::optional<factorial_analysis> analysis;  // the screen, on the factorial path
  // Terms the matrix could not estimate (a configuration failed in every round), as toggle ids.
  std::vector<std::vector<std::string>> not_estimable;
};

// The terms of a bisection as design §9 reports them: a culprit pushes the way of the overall
// verdict (for a SLOWER time metric: effect > 0; without a direction, SAME or INCONCLUSIVE, the way of
// a regression — stats::log_direction); a term that pulls the other way is an offset, so a speed-up
// is never called the culprit of a slowdown. Terms the confirmation A/Bs did not support are
// `rejected`, whichever way they point.
struct attribution {
  std::vector<culprit> culprits, offsets, rejected;
};
attribution split_by_direction(const bisect_report& report, stats::better direction);

// The supported term a full factorial finds hardest to match — its runs grow as (c/h)², with h the
// term's CI half-width and c its SE factor in the factorial (SE·√N/σ̂, `se_factor_of` by toggles, 2
// where unknown) — as (h, c); else (`fallback`, 2). Matching that term matches every culprit.
std::pair<double, double> binding_term(const std::vector<culprit>& terms, double fallback,
                                       const std::map<std::vector<std::string>, double>& se_factor_of);

// Compares `to` with `from`, then plans (plan_search, with the noise the overall A/B measured) and
// attributes the difference to toggles: a factorial design (full or resolution-V half) → main effects
// and pairs screened with Holm in ±1 coding, the active terms — with the main effects of active pairs,
// by effect heredity (Hamada & Wu 1992) — re-fitted in 0/1 coding; a culprit is a re-fitted term
// significant after Holm and larger than the margin; group testing → adaptive splitting when the
// overall verdict is SLOWER or FASTER (see group_search.hpp), each comparison at α / (2⌈log2 k⌉).
// Then the confirmations (culprit::confirmed), and on the factorial path the reported effects and
// CIs re-estimated from every run (pooled_fit.hpp). The overall and confirmation A/Bs use search_margin
// and α. Throws std::invalid_argument on unknown toggles or levels, or a forced design that does not
// apply to the toggles.
bisect_report bisect_toggles(oracle& o, const std::vector<toggle_spec>& toggles, const levels& from, const levels& to,
                             const search_options& options = {});

}  // namespace abtest::search
