// Toggles, variant keys and 0/1 factors.
#include "harness/search/toggle_spec.hpp"

#include <algorithm>
#include <stdexcept>

namespace abtest::search {

namespace {
const toggle_spec& find_toggle(const std::vector<toggle_spec>& toggles, const std::string& id) {
  for (const toggle_spec& t : toggles) {
    if (t.id == id) return t;
  }
  throw std::invalid_argument("error: unknown toggle '" + id + "' — use an id from the manifest's toggles");
}

void check_level(const toggle_spec& t, const std::string& level) {
  if (std::find(t.levels.begin(), t.levels.end(), level) == t.levels.end()) {
    throw std::invalid_argument("error: toggle " + t.id + " has no level '" + level + "' — use one of its levels");
  }
}

std::vector<const toggle_spec*> sorted_by_id(const std::vector<toggle_spec>& toggles) {
  std::vector<const toggle_spec*> sorted;
  for (const toggle_spec& t : toggles) sorted.push_back(&t);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->id < b->id; });
  return sorted;
}
}  // namespace

std::string toggle_spec::term(const std::string& level) const {
  return levels.size() == 2 ? id : id + "=" + level;
}

std::string level_of(const toggle_spec& toggle, const levels& variant) {
  const auto it = variant.find(toggle.id);
  if (it == variant.end()) return toggle.off_level();
  check_level(toggle, it->second);
  return it->second;
}

std::string variant_key(const std::vector<toggle_spec>& toggles, const levels& variant) {
  for (const auto& [id, level] : variant) check_level(find_toggle(toggles, id), level);
  // Sorted by toggle id, not by the spelled term: with A1 (multi-level) and A10 the key is
  // "A1=4+A10" ('=' sorts after '0', so sorting the terms would give "A10+A1=4").
  std::string key;
  for (const toggle_spec* t : sorted_by_id(toggles)) {
    const std::string level = level_of(*t, variant);
    if (level == t->off_level()) continue;
    if (!key.empty()) key += '+';
    key += t->term(level);
  }
  return key.empty() ? "base" : key;
}

std::vector<factor> differing_factors(const std::vector<toggle_spec>& toggles, const levels& from, const levels& to,
                                      const std::vector<std::string>& exclude) {
  for (const levels* v : {&from, &to}) {
    for (const auto& [id, level] : *v) check_level(find_toggle(toggles, id), level);
  }
  std::vector<factor> out;
  for (const toggle_spec* t : sorted_by_id(toggles)) {
    if (std::find(exclude.begin(), exclude.end(), t->id) != exclude.end()) continue;
    const std::string low = level_of(*t, from);
    const std::string high = level_of(*t, to);
    if (low != high) out.push_back(factor{t->id, low, high, t->term(high)});
  }
  return out;
}

levels apply(const levels& base, const std::vector<factor>& factors, const std::vector<int>& coding) {
  levels out = base;
  for (std::size_t j = 0; j < factors.size(); ++j) out[factors[j].toggle] = coding.at(j) ? factors[j].high : factors[j].low;
  return out;
}

}  // namespace abtest::search
