// The variants `abtest build --matrix` builds, in the order that reuses most (see build_matrix.hpp).
#include "harness/experiment/build_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "harness/core/errors.hpp"
#include "harness/search/design.hpp"

namespace abtest {

std::vector<variant> design_variants(const manifest& m, const std::vector<std::string>& ids, const std::string& name) {
  std::vector<const toggle_spec*> factors;
  for (const auto& t : m.toggles)
    if (t.changes_build() && (ids.empty() || std::count(ids.begin(), ids.end(), t.id))) factors.push_back(&t);
  for (const auto& id : ids)
    if (!m.toggle(id).changes_build()) throw usage_error(fmt::format("--toggle {}: an env toggle needs no build — leave it out", id));
  if (factors.empty()) throw usage_error("no toggles to build — the manifest's toggles are all `env`, which need no build");
  std::vector<variant> out;
  if (name == "full") {
    out.emplace_back();
    for (const auto* t : factors) {
      std::vector<variant> next;
      for (const auto& v : out)
        for (const auto& level : t->levels) {
          variant w = v;
          if (level != t->off()) w.levels[t->id] = level;
          next.push_back(std::move(w));
        }
      out = std::move(next);
    }
    return out;
  }
  search::design d;
  try {
    d = search::make_design(name, static_cast<int>(factors.size()));
  } catch (const std::invalid_argument& e) {
    throw usage_error(fmt::format("--design {}: {} — use full, half or oat", name, e.what()));
  }
  for (const auto& run : d.runs) {
    variant v;
    for (size_t j = 0; j < factors.size(); ++j)
      if (run[j]) v.levels[factors[j]->id] = factors[j]->on;
    out.push_back(std::move(v));
  }
  return out;
}

int toggle_distance(const variant& a, const variant& b) {
  std::set<std::string> ids;
  for (const auto& [id, _] : a.levels) ids.insert(id);
  for (const auto& [id, _] : b.levels) ids.insert(id);
  int d = 0;
  for (const auto& id : ids) {
    const auto x = a.levels.find(id), y = b.levels.find(id);
    d += (x == a.levels.end() || y == b.levels.end()) ? 1 : x->second != y->second;
  }
  return d;
}

std::vector<variant> reuse_order(std::vector<variant> todo) {
  std::vector<variant> out;
  variant last;
  while (!todo.empty()) {
    auto best = todo.begin();
    for (auto it = todo.begin(); it != todo.end(); ++it) {
      const int here = toggle_distance(*it, last), so_far = toggle_distance(*best, last);
      if (here < so_far || (here == so_far && *it < *best)) best = it;
    }
    last = *best;
    out.push_back(std::move(*best));
    todo.erase(best);
  }
  return out;
}

}  // namespace abtest
