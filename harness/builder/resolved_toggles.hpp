// What each toggle was in one build (design §5): the value the build tool ended up with — read back
// from the tool where it can say (CMake's cache, Cargo's resolved features), else what abtest
// handed it — the manifest level that value is, and whether abtest or the project chose it.
//
//   const resolved_toggles r = b.build(v).resolved;
//   r.at("FX_X2").level == "ON", r.at("FX_X2").handed == false   // the project's own default
//   to_text(r.at("FX_X2")) == "ON"
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/core/manifest.hpp"

namespace abtest {

struct resolved_toggle {
  // CMake's cache value, Cargo's enabled features of the toggle ("a,b"; "" for none), the value a
  // command build was handed; nullopt: not set in this build (the project defines no such option,
  // or a command build's variable was left to the project).
  std::optional<std::string> value;
  std::optional<std::string> level;  // the manifest level `value` is; nullopt: none matches, or unknown
  bool handed = false;               // abtest passed it (-D, --features, a variable); false: the project's default
};
using resolved_toggles = std::map<std::string, resolved_toggle>;  // by toggle id

// CMake's truth of a constant (the if() command's rules): ON/YES/TRUE/Y/a non-zero number are
// true; OFF/NO/FALSE/N/IGNORE/0/""/…-NOTFOUND are false; anything else is nullopt (a string).
std::optional<bool> cmake_truth(const std::string& value);

// The level of option toggle `t` whose value (toggle_spec::value_of) is `value`: the same text,
// else the same CMake truth (a cache holding "1" or "on" for a level "ON"); nullopt when none is.
std::optional<std::string> level_of_value(const toggle_spec& t, const std::string& value);

// The level of feature toggle `t` given the features a build enabled: the last level (manifest
// order) whose features are all enabled and not empty, else a level with no features (off);
// nullopt when none fits.
std::optional<std::string> level_of_features(const toggle_spec& t, const std::set<std::string>& enabled);

// {"FX_X2": {"value": "ON", "level": "ON", "set_by": "project"}, …} — the build row's
// details.resolved (db/README.md); set_by is "abtest" for a handed value.
nlohmann::json to_json(const resolved_toggles& r);
resolved_toggles resolved_from_json(const nlohmann::json& j);  // the inverse; {} for anything else

// What it was, in words: its level ("ON"), else its value in quotes ("\"fast\""), else "unset".
std::string to_text(const resolved_toggle& r);

// A toggle that two builds left to the project and that resolved differently in them: a default
// the change between them flipped.
struct default_flip {
  std::string toggle;
  std::string from, to;                   // each side's level, else its value in quotes, else "unset"
  std::optional<std::string> from_level;  // the first build's level: what puts the default back
};

// The flips from `before` to `after`, in toggle-id order; toggles given a level on either side
// (handed) and toggles one side lacks are not defaults and never flips.
std::vector<default_flip> default_flips(const resolved_toggles& before, const resolved_toggles& after);
// "FX_X2: OFF → ON"
std::string to_text(const default_flip& f);
// [{"toggle", "from", "to", "text"}, …]: the "defaults_changed" of `pr`, `check` and
// `bisect --commits` --json (design §9.2).
nlohmann::json to_json(const std::vector<default_flip>& flips);

}  // namespace abtest
