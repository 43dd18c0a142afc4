// Variants: one assignment of levels to toggles, and its canonical key (design §5).
//
// Example (with the root manifest):
//   variant v = parse_variant_spec("A1=4+B1", m);   // or variant_from_flags({"A1", "B1"}, m)
//   v.key(m)        == "A1=4+B1"    // two-level toggles by id, others as ID=LEVEL, sorted by id
//   v.folder_name(m) == "A1-4+B1"   // filesystem-safe
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/core/manifest.hpp"
#include "harness/search/toggle_spec.hpp"

namespace abtest {

struct variant {
  // toggle id → level, only toggles at a non-off level (so `base` is the empty map).
  std::map<std::string, std::string> levels;

  std::string key(const manifest& m) const;
  std::string folder_name(const manifest& m) const;
  // Level of every toggle of the manifest, off levels included (what the build configures).
  std::map<std::string, std::string> all_levels(const manifest& m) const;
  bool is_base() const { return levels.empty(); }
  bool operator==(const variant&) const = default;
  auto operator<=>(const variant&) const = default;
};

// `--toggle ID` (the toggle's `on` level) and `--toggle ID=LEVEL`, validated against the manifest.
variant variant_from_flags(const std::vector<std::string>& toggles, const manifest& m);

// The toggle ids of `--toggle ID[=LEVEL]` flags (off levels too): the toggles a commit arm is given
// a level for, every other left to the commit's own default (builder_options::pinned, design §5).
// Validate the flags with variant_from_flags.
std::set<std::string> named_toggles(const std::vector<std::string>& toggles);

// A SPEC: `base`, `all` (every toggle at its `on` level), or a key such as `A1=4+B1`
// (a bare id means its `on` level). Errors name the bad part and the known toggles (exit 2).
variant parse_variant_spec(const std::string& spec, const manifest& m);

// The manifest's toggles as the search sees them (id, levels, on).
std::vector<search::toggle_spec> search_toggles(const manifest& m);

// Variant key of an arbitrary level map (off levels allowed). There is one key function,
// search::variant_key; this and variant::key spell the manifest's toggles for it.
std::string variant_key(const std::map<std::string, std::string>& levels, const manifest& m);

}  // namespace abtest
