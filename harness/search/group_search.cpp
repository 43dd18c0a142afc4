// Adaptive group testing with a ddmin step for interactions.
#include "harness/search/group_search.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace abtest::search {

namespace {

enum class outcome { bad, good, unknown };

class searcher {
 public:
  // direction: the overall verdict being explained; up: whether its log ratio is positive (a rate that
  // fell is SLOWER with a negative log ratio, a time that rose is SLOWER with a positive one).
  searcher(search_session& s, const levels& from, const std::vector<factor>& factors, stats::verdict direction, bool up,
           double margin, double alpha)
      : session_(s), from_(from), factors_(factors), direction_(direction), up_(up), band_(std::log1p(margin)) {
    how_.margin = margin;
    how_.alpha = alpha;
    how_.settled = [this](const comparison& c) { return classify(c) != outcome::unknown; };
    how_.settle_side = up ? 1 : -1;  // "good" needs only the searched side ruled out (classify)
  }

  outcome classify(const comparison& c) const {
    if (c.verdict == direction_) return outcome::bad;
    if (c.verdict == stats::verdict::invalid || !c.estimate.has_ci) return outcome::unknown;
    if (c.verdict != stats::verdict::inconclusive) return outcome::good;
    // INCONCLUSIVE, but the always-valid CI already rules out a material effect in the searched
    // direction: the subset holds no culprit worth finding.
    const bool excluded = up_ ? c.estimate.ci_high < band_ : c.estimate.ci_low > -band_;
    return excluded ? outcome::good : outcome::unknown;
  }

  std::pair<outcome, const comparison*> test(const std::vector<int>& subset) {
    std::vector<int> coding(factors_.size(), 0);
    for (int j : subset) coding[static_cast<std::size_t>(j)] = 1;
    const comparison& c = session_.ask(from_, apply(from_, factors_, coding), how_);
    return {classify(c), &c};
  }

  // Minimal sets within `set` that, with `context` on, reproduce the effect. `known` says whether
  // set ∪ context was measured bad; when it was only inferred (its sibling measured good) and the
  // inference fails below, the result is nullopt and the nearest measured ancestor sorts it out.
  std::optional<std::vector<group_culprit>> search(const std::vector<int>& set, const std::vector<int>& context,
                                                   bool known, const comparison* evidence) {
    if (set.size() == 1) {
      if (!known) {
        const auto [o, e] = test(join(set, context));
        if (o != outcome::bad) return std::nullopt;
        evidence = e;
      }
      return std::vector<group_culprit>{group_culprit{{set.front()}, *evidence}};
    }
    const auto mid = set.begin() + static_cast<std::ptrdiff_t>(set.size() / 2);
    const std::vector<int> h1(set.begin(), mid);
    const std::vector<int> h2(mid, set.end());
    const auto [a, ea] = test(join(h1, context));
    if (a == outcome::bad) {
      std::vector<group_culprit> found = search(h1, context, true, ea).value_or(std::vector<group_culprit>{});
      const auto [b, eb] = test(join(h2, context));
      if (b == outcome::bad) {
        const std::vector<group_culprit> more = search(h2, context, true, eb).value_or(std::vector<group_culprit>{});
        found.insert(found.end(), more.begin(), more.end());
      } else if (b == outcome::unknown) {
        mark(h2);
      }
      return found;
    }
    // H1 is not bad: if set ∪ context is, H2 must be, unless the effect needs both (an interaction).
    // Infer it and save a comparison; the leaves are always measured, which checks the inference.
    if (auto inferred = search(h2, context, false, nullptr)) {
      if (a == outcome::unknown) mark(h1);
      return inferred;
    }
    if (!known) return std::nullopt;
    const auto [b, eb] = test(join(h2, context));
    if (b == outcome::bad) return search(h2, context, true, eb);
    if (a == outcome::good && b == outcome::good) return interaction(h1, h2, context);
    mark(set);
    return std::vector<group_culprit>{};
  }

  const std::vector<int>& unresolved() const { return unresolved_; }

 private:
  // Neither half alone with `context` reproduces the effect: each needs the other (ddmin).
  std::vector<group_culprit> interaction(const std::vector<int>& h1, const std::vector<int>& h2,
                                         const std::vector<int>& context) {
    const auto [whole, ew] = test(join(join(h1, h2), context));
    std::vector<int> a = members(search(h1, join(h2, context), true, ew).value_or(std::vector<group_culprit>{}));
    if (a.empty()) a = h1;  // unresolved inside h1: keep the whole half as the partner
    const auto [with_a, ewa] = test(join(a, join(h2, context)));
    std::vector<int> b =
        members(search(h2, join(a, context), with_a == outcome::bad, ewa).value_or(std::vector<group_culprit>{}));
    if (b.empty()) b = h2;
    std::vector<int> set = join(a, b);
    std::sort(set.begin(), set.end());
    prune(set, context);
    const auto [o, e] = test(join(set, context));
    if (o != outcome::bad) {
      mark(set);
      return {};
    }
    return {group_culprit{set, *e}};
  }

  // 1-minimality (ddmin): a member without which the set, with `context` on, still reproduces the
  // effect is not needed — a noisy halving can pull a bystander into the set it keeps on, and a
  // pair must not grow a spurious third member. Down to two members; a pair is the caller's to check.
  void prune(std::vector<int>& set, const std::vector<int>& context) {
    for (std::size_t i = 0; i < set.size() && set.size() > 2;) {
      std::vector<int> rest = set;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
      if (test(join(rest, context)).first == outcome::bad) set = std::move(rest);
      else ++i;
    }
  }

  static std::vector<int> join(const std::vector<int>& x, const std::vector<int>& y) {
    std::vector<int> out = x;
    out.insert(out.end(), y.begin(), y.end());
    return out;
  }

  static std::vector<int> members(const std::vector<group_culprit>& found) {
    std::vector<int> out;
    for (const group_culprit& g : found) out.insert(out.end(), g.factors.begin(), g.factors.end());
    return out;
  }

  void mark(const std::vector<int>& set) { unresolved_.insert(unresolved_.end(), set.begin(), set.end()); }

  search_session& session_;
  const levels& from_;
  const std::vector<factor>& factors_;
  stats::verdict direction_;
  bool up_;
  double band_;
  ask_options how_;
  std::vector<int> unresolved_;
};

}  // namespace

group_outcome group_search(search_session& session, const levels& from, const std::vector<factor>& factors,
                           const comparison& overall, double margin, double alpha) {
  group_outcome out;
  const stats::verdict direction = overall.verdict;
  if (direction != stats::verdict::slower && direction != stats::verdict::faster) return out;
  searcher s(session, from, factors, direction, overall.estimate.estimate > 0.0, margin, alpha);
  std::vector<int> all(factors.size());
  for (std::size_t j = 0; j < all.size(); ++j) all[j] = static_cast<int>(j);
  out.culprits = s.search(all, {}, true, &overall).value_or(std::vector<group_culprit>{});
  out.unresolved = s.unresolved();
  std::sort(out.unresolved.begin(), out.unresolved.end());
  out.unresolved.erase(std::unique(out.unresolved.begin(), out.unresolved.end()), out.unresolved.end());
  return out;
}

}  // namespace abtest::search
