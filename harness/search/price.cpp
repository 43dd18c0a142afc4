// Pricing a bisection: expected cost of each design, the cheapest chosen; the full factorial at equal precision.
#include "harness/search/price.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include "harness/search/design.hpp"
#include "harness/stats/power.hpp"

namespace abtest::search {

namespace {

constexpr double z_95 = 1.959963984540054;  // two-sided 95% normal quantile

long long saturating(double x) {
  constexpr double cap = 9.0e18;
  return x >= cap ? static_cast<long long>(cap) : static_cast<long long>(std::ceil(x));
}

// Rounds of a paired A/B that find ln(1 + margin) at level alpha (fixed ones with --rounds).
int ab_rounds(const unit_costs& u, const plan_options& o, double alpha) {
  if (o.matrix_rounds > 0) return o.matrix_rounds;  // --rounds: every comparison runs that many
  return std::max(o.min_ab_rounds, stats::rounds_needed(o.margin, std::sqrt(2.0) * u.sigma, alpha, o.power));
}

// The overall A/B and the two confirmation A/Bs of one culprit, common to every design.
long long ab_runs(const unit_costs& u, const plan_options& o) { return 3LL * 2 * ab_rounds(u, o, o.alpha); }

// The fewest rounds of a matrix of `configs` after which a ±1 effect of ln(1 + margin) (SE = 2σ/√N,
// N = configs · rounds) passes the first Holm step over the k + k(k−1)/2 terms with `power`: the t
// quantile on the residual's (configs − 1)(rounds − 1) degrees of freedom, which a 2-round matrix of
// 16 configurations makes much larger than z.
int rounds_for(int k, int configs, const unit_costs& u, const plan_options& o) {
  const double terms = k + k * (k - 1) / 2.0;
  const double z_power = boost::math::quantile(boost::math::normal(), o.power);
  for (int rounds = o.min_matrix_rounds;; ++rounds) {
    const double df = (configs - 1.0) * (rounds - 1.0);
    const double t = boost::math::quantile(boost::math::complement(boost::math::students_t(df), o.alpha / terms / 2.0));
    const double se = 2.0 * u.sigma / std::sqrt(static_cast<double>(configs) * rounds);
    if (se * (t + z_power) <= std::log1p(o.margin) || rounds >= 100) return rounds;
  }
}

priced_design factorial(int k, const design& d, const unit_costs& u, const plan_options& o) {
  priced_design p;
  p.design = d.kind == "full" ? design_choice::full : design_choice::half;
  p.configs = static_cast<int>(d.runs.size());
  p.label = d.kind == "full" ? "full 2^" + std::to_string(k)
                             : "half 2^(" + std::to_string(k) + "-" + std::to_string(d.generators.size()) + ")";
  for (const std::string& g : d.generators) p.label += " " + g;
  p.rounds = o.matrix_rounds > 0 ? o.matrix_rounds : rounds_for(k, p.configs, u, o);
  // A fraction lacks the all-off corner (the baseline is built anyway) and the confirmations' to − C.
  const long long extra_builds = d.kind == "full" ? 0 : 2;
  p.expected = priced(p.configs + extra_builds, 1LL * p.configs * p.rounds + ab_runs(u, o), u);
  return p;
}

priced_design group(int k, const unit_costs& u, const plan_options& o) {
  priced_design p;
  p.design = design_choice::group;
  p.label = "group testing";
  const int depth = std::max(1, static_cast<int>(std::ceil(std::log2(static_cast<double>(k)))));
  const long long comparisons = (3LL * depth + 1) / 2;  // 1.5 per level, one culprit
  p.rounds = ab_rounds(u, o, o.alpha / (2.0 * depth));
  p.expected = priced(2 + comparisons + 1, 2LL * p.rounds * comparisons + ab_runs(u, o), u);
  return p;
}

bool cheaper(const priced_design& a, const priced_design& b, bool by_wall) {
  if (by_wall && a.expected.wall_s != b.expected.wall_s) return a.expected.wall_s < b.expected.wall_s;
  if (a.expected.runs != b.expected.runs) return a.expected.runs < b.expected.runs;
  return a.expected.builds < b.expected.builds;
}

}  // namespace

price priced(long long builds, long long runs, const unit_costs& u) {
  return {runs, builds, static_cast<double>(builds) * u.build_s + static_cast<double>(runs) * u.run_s};
}

design_choice parse_design_choice(const std::string& text) {
  if (text == "auto") return design_choice::automatic;
  if (text == "full") return design_choice::full;
  if (text == "half") return design_choice::half;
  if (text == "group") return design_choice::group;
  throw std::invalid_argument("error: unknown design '" + text + "' — use auto, full, half or group");
}

std::string to_string(design_choice d) {
  switch (d) {
    case design_choice::automatic: return "auto";
    case design_choice::full: return "full";
    case design_choice::half: return "half";
    case design_choice::group: return "group";
  }
  return "auto";
}

search_plan plan_search(int k, const unit_costs& u, const plan_options& o) {
  if (k < 1) throw std::invalid_argument("error: nothing to plan — no toggle differs");
  search_plan plan;
  if (k <= 16) plan.alternatives.push_back(factorial(k, full_factorial(k), u, o));
  if (k >= 5 && k <= 8) plan.alternatives.push_back(factorial(k, fractional_factorial(k), u, o));
  if (k >= 2) plan.alternatives.push_back(group(k, u, o));
  if (o.design != design_choice::automatic) {
    // A half fraction of k ≤ 4 factors is the full factorial (design.hpp).
    const design_choice want = o.design == design_choice::half && k <= 4 ? design_choice::full : o.design;
    const auto it = std::find_if(plan.alternatives.begin(), plan.alternatives.end(),
                                 [&](const priced_design& p) { return p.design == want; });
    if (it == plan.alternatives.end()) {
      throw std::invalid_argument("error: --design " + to_string(o.design) + " does not apply to " + std::to_string(k) +
                                  " toggles — full needs k ≤ 16, half 5 ≤ k ≤ 8, group k ≥ 2; use --design auto");
    }
    plan.chosen = *it;
    plan.reason = "--design " + to_string(o.design);
    return plan;
  }
  const bool by_wall = u.build_s > 0.0 || u.run_s > 0.0;
  // Up to group_testing_from − 1 toggles auto keeps to the factorials, which estimate every pair:
  // group testing is priced for one culprit, and a pair whose members fall in different halves beside
  // a main effect is lost to it (the planted fixture's SLOW with PAIR1*PAIR2: k = 3, 36 runs against
  // the full factorial's 42, and the pair missed). --design group still runs it.
  std::vector<priced_design> eligible;
  for (const auto& p : plan.alternatives)
    if (p.design != design_choice::group || k >= group_testing_from || plan.alternatives.size() == 1) eligible.push_back(p);
  plan.chosen = *std::min_element(eligible.begin(), eligible.end(),
                                  [&](const priced_design& a, const priced_design& b) { return cheaper(a, b, by_wall); });
  plan.reason = by_wall ? "cheapest in wall time" : "fewest runs (no unit costs known)";
  if (k < group_testing_from) plan.reason += "; group testing only from " + std::to_string(group_testing_from) + " toggles";
  return plan;
}

price full_factorial_at(int k, double half_width, const unit_costs& u, int min_rounds, double se_factor) {
  const double configs = std::pow(2.0, std::min(k, 62));
  double rounds = min_rounds;
  if (half_width > 0.0 && std::isfinite(half_width)) {
    const double n = std::ceil(std::pow(z_95 * se_factor * u.sigma / half_width, 2.0));
    rounds = std::max(rounds, std::ceil(n / configs));
  }
  price p;
  p.builds = saturating(configs);
  p.runs = saturating(configs * rounds);
  p.wall_s = configs * u.build_s + configs * rounds * u.run_s;
  return p;
}

}  // namespace abtest::search
