// Confirmations of a bisection's candidates: a main effect's two A/Bs, a pair's heredity or four cells, and the noise and seconds they are priced with.
#pragma once

#include <functional>
#include <limits>
#include <vector>

#include "harness/search/effects.hpp"
#include "harness/search/oracle.hpp"
#include "harness/search/toggle_bisect.hpp"

namespace abtest::search {

// The rounds a confirmation A/B runs at least when the matrix's noise is known: two paired
// differences give an interval; the third keeps one wild round from deciding alone.
constexpr int confirm_min_rounds = 3;

// The noise the matrix measured, for the confirmations after it: σ̂² at its 95% upper confidence
// bound (χ² on its df), so that a low draw does not make them overconfident, and each
// configuration's relative variance (dispersion.hpp; 1 with one σ). NaN without a residual.
struct matrix_noise {
  double upper = std::numeric_limits<double>::quiet_NaN();
  dispersion_model dispersion;
  const std::vector<factor>* factors = nullptr;

  // The variance of Σ ±y over these configurations' runs in one round: an A/B difference (two), the
  // four cells' contrast (four).
  double of(const std::vector<levels>& configs) const {
    double sum = 0.0;
    for (const levels& l : configs) sum += dispersion.relative_variance(run_of(l));
    return upper * sum;
  }
  std::vector<int> run_of(const levels& l) const {
    std::vector<int> run;
    for (const factor& f : *factors) {
      const auto it = l.find(f.toggle);
      run.push_back(it != l.end() && it->second == f.high ? 1 : 0);
    }
    return run;
  }
};

// The most rounds an A/B of a confirmation runs at its first attempt (the oracles' cap, 50), and a
// pair's four cells (confirm_pair): the worst case the step lines count.
constexpr int confirmation_worst_rounds = 50;
constexpr int four_cells_worst_rounds = 40;

matrix_noise noise_of(const factorial_analysis& screen, const std::vector<factor>& factors);

// design §7: from + C vs from must move in the culprit's direction, and to vs to − C must not, each
// measured afresh. The A/B at the end whose runs take fewer measured seconds goes first, and one
// that does not support the culprit ends it: the other could not save it. `how(a, b)` gives the
// options of an A/B of a against b (its known variance where the matrix measured the noise).
bool confirm_main(search_session& session, const levels& from, const levels& to, const std::vector<factor>& factors,
                  const std::vector<int>& members, double effect,
                  const std::function<ask_options(const levels&, const levels&)>& how);

// A pair holds up by strong heredity — both of its toggles supported main effects of their own (in
// `mains`) — else by its four cells, measured until their confidence sequence decides, at most
// four_cells_worst_rounds; `contrast_variance` is the matrix's variance of the four cells' contrast
// (NaN: none), from `min_rounds` on. Sets c.confirmed and c.support.
void confirm_pair(search_session& session, const levels& from, const std::vector<factor>& factors, culprit& c,
                  const std::vector<int>& members, const std::vector<culprit>& mains, const search_options& options,
                  double contrast_variance, int min_rounds);

// Seconds of one round of `configs` as measured; one not measured yet counts at the slowest that
// was (a worst case), and NaN when none was.
double round_s(const search_session& session, const std::vector<levels>& configs);

}  // namespace abtest::search
