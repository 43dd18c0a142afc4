// The memoising search session over an oracle.
#include "harness/search/oracle.hpp"

#include <cmath>
#include <limits>

namespace abtest::search {

const comparison& search_session::ask(const levels& from, const levels& to, const ask_options& how) {
  const auto key = std::make_tuple(variant_key(toggles_, from), variant_key(toggles_, to), how.margin, how.alpha);
  if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
  return memo_.emplace(key, measure(from, to, how)).first->second;
}

comparison search_session::measure(const levels& from, const levels& to, const ask_options& how) {
  saw(from);
  saw(to);
  comparison c;
  for (int attempt = 0; attempt < 2; ++attempt) {
    c = oracle_.compare(from, to, comparison_request{how.margin, how.alpha, attempt, how.settle_side, how.known_variance,
                                                      how.tau, how.min_rounds});
    ++comparisons_;
    runs_ += c.runs;
    timed(from, c.from_run_s, c.runs / 2);
    timed(to, c.to_run_s, c.runs - c.runs / 2);
    rounds_ += c.rounds;
    if (c.estimate.n >= 2 && std::isfinite(c.estimate.spread)) {
      squares_ += (c.estimate.n - 1) * c.estimate.spread * c.estimate.spread;
      df_ += c.estimate.n - 1;
      if (c.paired) measured_.push_back({from, to, c.estimate});
    }
    if (how.settled ? how.settled(c) : c.verdict != stats::verdict::inconclusive) break;
  }
  return c;
}

matrix_result search_session::run_matrix(const std::vector<levels>& configs, int rounds) {
  for (const levels& c : configs) saw(c);
  matrix_result m = oracle_.run_matrix(configs, rounds);
  runs_ += m.runs;
  for (std::size_t c = 0; c < configs.size() && c < m.run_s.size(); ++c)
    timed(configs[c], m.run_s[c], m.runs / static_cast<int>(configs.size()));
  matrices_.push_back({configs, m.log_values});
  return m;
}

void search_session::timed(const levels& variant, double run_s, int runs) {
  if (!std::isfinite(run_s) || run_s < 0.0) return;
  run_s_[variant_key(toggles_, variant)] = run_s;
  seconds_ += run_s * runs;
}

double search_session::run_seconds(const levels& variant) const {
  const auto it = run_s_.find(variant_key(toggles_, variant));
  return it == run_s_.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

bool settled_on_side(const stats::log_estimate& e, int side, double margin) {
  if (!e.has_ci || side == 0) return false;
  const double band = std::log1p(margin);
  return side > 0 ? e.ci_high < band : e.ci_low > -band;
}

double search_session::pooled_sigma() const {
  return df_ > 0.0 ? std::sqrt(squares_ / df_ / 2.0) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace abtest::search
