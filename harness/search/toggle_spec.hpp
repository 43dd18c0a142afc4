// Toggles as the search sees them: id and levels, variant keys, and the 0/1 factors between two variants.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace abtest::search {

// A variant: toggle id → level. A toggle missing from the map is at its off level.
using levels = std::map<std::string, std::string>;

// The manifest's toggle fields that matter to the search (design §3): the first level is "off",
// `on` (default: the last level) is what `--toggle ID` selects.
struct toggle_spec {
  std::string id;
  std::vector<std::string> levels{"OFF", "ON"};
  std::string on;  // empty → the last level

  const std::string& off_level() const { return levels.front(); }
  const std::string& on_level() const { return on.empty() ? levels.back() : on; }
  // A toggle at `level` spelled as in variant keys (design §5): "B1" for two levels, "A1=4" otherwise.
  std::string term(const std::string& level) const;
};

// The canonical variant key: toggles at a non-off level, sorted by id, joined by '+'; "base" if none.
// Throws std::invalid_argument on an unknown toggle or level.
std::string variant_key(const std::vector<toggle_spec>& toggles, const levels& variant);

// Level of `id` in `variant` (its off level when absent).
std::string level_of(const toggle_spec& toggle, const levels& variant);

// One 0/1 factor of a design: toggle `toggle` at `low` (0) or `high` (1). For a multi-level toggle
// each non-off level is its own factor against off; between two variants, the factor is the
// toggle's level in `from` vs its level in `to`.
struct factor {
  std::string toggle;
  std::string low;
  std::string high;
  std::string name;  // the high level spelled as in variant keys: "A1=4", "B1"
};

// The toggles whose levels differ between `from` and `to`, in id order, leaving out `exclude`
// (inert toggles, failed builds). Throws std::invalid_argument on an unknown toggle or level.
std::vector<factor> differing_factors(const std::vector<toggle_spec>& toggles, const levels& from, const levels& to,
                                      const std::vector<std::string>& exclude = {});

// `base` with each factor set to its low (0) or high (1) level as `coding[j]` says.
levels apply(const levels& base, const std::vector<factor>& factors, const std::vector<int>& coding);

}  // namespace abtest::search
