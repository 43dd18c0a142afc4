// Adaptive group testing with a ddmin step for interactions.
#include "harness/search/group_search.hpp"

#include <algorithm>

namespace abtest::search {

namespace {

enum class outcome { bad, good, unknown };

class searcher {
 public:
  searcher(search_session& s, const levels& from, const std::vector<factor>& factors, stats::verdict direction,
           double margin)
      : session_(s), from_(from), factors_(factors), direction_(direction), margin_(margin) {}

  std::pair<outcome, const comparison*> test(const std::vector<int>& subset) {
    std::vector<int> coding(factors_.size(), 0);
    for (int j : subset) coding[static_cast<std::size_t>(j)] = 1;
    const comparison& c = session_.ask(from_, apply(from_, factors_, coding), margin_);
    if (c.verdict == direction_) return {outcome::bad, &c};
    if (c.verdict == stats::verdict::inconclusive || c.verdict == stats::verdict::invalid) return {outcome::unknown, &c};
    return {outcome::good, &c};
  }

  // Minimal sets within `set` that, with `context` on, reproduce the effect. `known` says whether
  // set ∪ context was measured bad (true) or only inferred.
  std::vector<group_culprit> search(const std::vector<int>& set, const std::vector<int>& context, bool known,
                                    const comparison* evidence) {
    if (set.size() == 1) {
      if (!known) {
        unresolved_.push_back(set.front());
        return {};
      }
      return {group_culprit{{set.front()}, *evidence}};
    }
    const auto mid = set.begin() + static_cast<std::ptrdiff_t>(set.size() / 2);
    const std::vector<int> h1(set.begin(), mid);
    const std::vector<int> h2(mid, set.end());
    const auto [a, ea] = test(join(h1, context));
    const auto [b, eb] = test(join(h2, context));
    std::vector<group_culprit> found;
    const auto descend = [&](const std::vector<int>& half, bool half_known, const comparison* e) {
      for (group_culprit& g : search(half, context, half_known, e)) found.push_back(std::move(g));
    };
    if (a == outcome::bad || b == outcome::bad) {
      if (a == outcome::bad) descend(h1, true, ea);
      if (b == outcome::bad) descend(h2, true, eb);
      if (a == outcome::unknown) mark(h1);
      if (b == outcome::unknown) mark(h2);
    } else if (a == outcome::good && b == outcome::good) {
      found = interaction(h1, h2, context);
    } else {  // no half measured bad, at least one unknown: the unknown halves are the only candidates
      if (a == outcome::unknown) descend(h1, false, ea);
      if (b == outcome::unknown) descend(h2, false, eb);
    }
    return found;
  }

  const std::vector<int>& unresolved() const { return unresolved_; }

 private:
  // Neither half alone with `context` reproduces the effect: each needs the other (ddmin).
  std::vector<group_culprit> interaction(const std::vector<int>& h1, const std::vector<int>& h2,
                                         const std::vector<int>& context) {
    const auto [whole, ew] = test(join(join(h1, h2), context));
    std::vector<int> a = members(search(h1, join(h2, context), true, ew));
    if (a.empty()) a = h1;  // unresolved inside h1: keep the whole half as the partner
    const auto [with_a, ewa] = test(join(a, join(h2, context)));
    std::vector<int> b = members(search(h2, join(a, context), with_a == outcome::bad, ewa));
    if (b.empty()) b = h2;
    std::vector<int> set = join(a, b);
    std::sort(set.begin(), set.end());
    const auto [o, e] = test(join(set, context));
    if (o != outcome::bad) {
      mark(set);
      return {};
    }
    return {group_culprit{set, *e}};
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
  double margin_;
  std::vector<int> unresolved_;
};

}  // namespace

group_outcome group_search(search_session& session, const levels& from, const std::vector<factor>& factors,
                           const comparison& overall, double margin) {
  group_outcome out;
  const stats::verdict direction = overall.verdict;
  if (direction != stats::verdict::slower && direction != stats::verdict::faster) return out;
  searcher s(session, from, factors, direction, margin);
  std::vector<int> all(factors.size());
  for (std::size_t j = 0; j < all.size(); ++j) all[j] = static_cast<int>(j);
  out.culprits = s.search(all, {}, true, &overall);
  out.unresolved = s.unresolved();
  std::sort(out.unresolved.begin(), out.unresolved.end());
  out.unresolved.erase(std::unique(out.unresolved.begin(), out.unresolved.end()), out.unresolved.end());
  return out;
}

}  // namespace abtest::search
