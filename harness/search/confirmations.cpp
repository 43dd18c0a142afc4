// Confirmations of a bisection's candidates: a main effect's two A/Bs, a pair's heredity or four cells, and the noise and seconds they are priced with.
#include "harness/search/confirmations.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "harness/search/factorial_search.hpp"
#include "harness/stats/power.hpp"

namespace abtest::search {

matrix_noise noise_of(const factorial_analysis& screen, const std::vector<factor>& factors) {
  matrix_noise n;
  n.factors = &factors;
  n.dispersion = screen.dispersion;
  if (std::isfinite(screen.sigma) && screen.sigma > 0.0 && screen.df >= 1.0)
    n.upper = stats::variance_upper_bound(screen.sigma * screen.sigma, screen.df, 0.95);
  return n;
}

namespace {

// Seconds one round of an A/B of a against b takes, as measured; +∞ when either is not timed (an
// A/B of unknown cost goes last).
double ab_round_s(const search_session& session, const levels& a, const levels& b) {
  const double s = session.run_seconds(a) + session.run_seconds(b);
  return std::isfinite(s) ? s : std::numeric_limits<double>::infinity();
}

}  // namespace

// design §7: from + C vs from must move in the culprit's direction, and to vs to − C must not, each
// measured afresh. The A/B at the end whose runs take fewer seconds goes first, and one that does
// not support the culprit ends it: the other could not save it. `how(a, b)` gives the options of an
// A/B of a against b (its known variance where the matrix measured the noise).
bool confirm_main(search_session& session, const levels& from, const levels& to, const std::vector<factor>& factors,
                  const std::vector<int>& members, double effect,
                  const std::function<ask_options(const levels&, const levels&)>& how) {
  // By the sign of the log ratio, not the verdict's name: for a rate (better higher) a positive
  // effect is FASTER.
  const bool up = effect > 0.0;
  const auto moves_with_effect = [up](const comparison& c) {
    const bool decisive = c.verdict == stats::verdict::slower || c.verdict == stats::verdict::faster;
    return decisive && (c.estimate.estimate > 0.0) == up;
  };
  levels with = from, without = to;
  for (int j : members) {
    const factor& f = factors[static_cast<std::size_t>(j)];
    with[f.toggle] = f.high;
    without[f.toggle] = f.low;
  }
  const auto added = [&] { return moves_with_effect(session.measure(from, with, how(from, with))); };
  const auto removed = [&] {
    // "Not in the culprit's direction" is settled once the CI rules out a material move that way
    // (equivalence on that side): no need to tell SAME from the opposite up to the round cap.
    ask_options one_sided = how(without, to);
    one_sided.settle_side = up ? 1 : -1;
    const double margin = one_sided.margin;
    one_sided.settled = [side = one_sided.settle_side, margin](const comparison& c) {
      return c.verdict != stats::verdict::inconclusive || settled_on_side(c.estimate, side, margin);
    };
    const comparison r = session.measure(to, without, one_sided);
    return !moves_with_effect(r) && one_sided.settled(r);
  };
  if (ab_round_s(session, to, without) < ab_round_s(session, from, with)) return removed() && added();
  return added() && removed();
}

// A pair holds up by strong heredity — both of its toggles supported main effects of their own — else
// by its four cells: the interaction contrast decisive in the screen's direction, measured until its
// confidence sequence decides (SAME inside ±search_margin ends it too, as not holding up), at most
// 40 rounds. One parent is not enough: beside a true culprit, a chance pair with a bystander would
// ride on it (the masking scenario showed 4 in 100).
void confirm_pair(search_session& session, const levels& from, const std::vector<factor>& factors, culprit& c,
                  const std::vector<int>& members, const std::vector<culprit>& mains, const search_options& options,
                  double contrast_variance, int min_rounds) {
  const auto supported = [&](const std::string& name) {
    return std::any_of(mains.begin(), mains.end(), [&](const culprit& m) {
      return m.confirmed.value_or(false) && m.toggles == std::vector<std::string>{name};
    });
  };
  if (std::all_of(c.toggles.begin(), c.toggles.end(), supported)) {
    c.confirmed = true;
    c.support = "heredity";
    return;
  }
  stats::sequential_options o;
  o.alpha = options.alpha;
  o.margin = options.search_margin;
  o.max_rounds = four_cells_worst_rounds;
  // The mixture's scale at the size the screen saw (its contrast has sd 2σ, twice an A/B's): a
  // confidence sequence tuned to the effect it checks decides sooner (Johari et al. 2017, §4).
  o.tau = std::max(o.tau, std::abs(c.effect));
  // After a matrix its noise is known: the contrast y₁₁ − y₁₀ − y₀₁ + y₀₀ has the four cells'
  // variances summed (twice an A/B difference's with one σ), and it starts from the confirmations'
  // rounds.
  if (std::isfinite(contrast_variance)) {
    o.known_variance = contrast_variance;
    o.min_rounds = min_rounds;
  }
  stats::log_estimate e;
  four_cells(session, from, factors, members[0], members[1], o, e);
  c.confirmed = e.has_ci && (c.effect > 0.0 ? e.ci_low > 0.0 : e.ci_high < 0.0);
  c.support = "four cells";
}

// Seconds of one round of `configs` as measured; one not measured yet counts at the slowest that
// was (a worst case), and NaN when none was.
double round_s(const search_session& session, const std::vector<levels>& configs) {
  double sum = 0.0, slowest = 0.0;
  int unknown = 0;
  for (const levels& c : configs) {
    const double t = session.run_seconds(c);
    if (std::isfinite(t)) sum += t, slowest = std::max(slowest, t);
    else ++unknown;
  }
  if (unknown == static_cast<int>(configs.size())) return std::numeric_limits<double>::quiet_NaN();
  return sum + unknown * slowest;
}


}  // namespace abtest::search
