// Reads one toggle object of abtest.json (design §3.1): the id, the levels, exactly one kind key
// (handed to its kind), the values, and what is for reports; messages name the file, key and fix.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <regex>
#include <set>

#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

using json = nlohmann::json;

const std::regex& id_pattern() {
  static const std::regex re("[A-Z][A-Z0-9_]{0,15}");
  return re;
}

// Levels appear in variant keys (`A1=4+B1`) and folder names (always after the id): no separators,
// no path tricks. A leading '-' is allowed for compiler flags as levels (`"levels": ["-O2", "-O3"]`).
const std::regex& level_pattern() {
  static const std::regex re("[A-Za-z0-9_-][A-Za-z0-9_.-]{0,31}");
  return re;
}

bool honours(const toggle_kind& k, build_system system) {
  const auto systems = k.systems();
  return systems.empty() || std::find(systems.begin(), systems.end(), system) != systems.end();
}

// The fix for a kind `system` cannot honour: its own kind keys ("option" for cmake), then the kinds
// every system honours ("env, patch or revert").
std::string other_kinds(build_system system) {
  std::vector<std::string> own, everywhere;
  for (const toggle_kind* k : toggle_kinds()) {
    if (k->systems().empty()) everywhere.emplace_back(k->name());
    else if (honours(*k, system))
      for (const auto& key : k->keys()) own.push_back(key);
  }
  std::string all = everywhere.empty() ? "" : everywhere.back();
  if (everywhere.size() > 1)
    all = fmt::format("{} or {}", fmt::join(everywhere.begin(), everywhere.end() - 1, ", "), everywhere.back());
  return fmt::format("use a toggle kind of {} projects ({}), or {}", to_string(system), fmt::join(own, ", "), all);
}

std::vector<std::string> kind_keys() {
  std::vector<std::string> keys;
  for (const toggle_kind* k : toggle_kinds())
    for (const auto& key : k->keys()) keys.push_back(key);
  return keys;
}

void parse_levels(const manifest_validator& v, const json& j, const std::string& where, toggle_spec& t) {
  t.levels = j.contains("levels") ? v.strings(j["levels"], where + ".levels")
                                  : std::vector<std::string>{"OFF", "ON"};
  if (t.levels.size() < 2) v.fail(where + ".levels", "needs at least two levels", "list the off level first, e.g. [\"OFF\", \"ON\"]");
  std::set<std::string> seen;
  for (size_t i = 0; i < t.levels.size(); ++i) {
    const auto& level = t.levels[i];
    if (!std::regex_match(level, level_pattern()))
      v.fail(fmt::format("{}.levels[{}]", where, i), fmt::format("\"{}\" is not a valid level", level),
             "use up to 32 characters [A-Za-z0-9_.-], not starting with '.'");
    if (!seen.insert(level).second)
      v.fail(fmt::format("{}.levels[{}]", where, i), fmt::format("level \"{}\" is listed twice", level), "remove the duplicate");
  }
  t.on = j.contains("on") ? v.string(j["on"], where + ".on") : t.levels.back();
  if (!seen.count(t.on))
    v.fail(where + ".on", fmt::format("\"{}\" is not one of the levels [{}]", t.on, fmt::join(t.levels, ", ")),
           "pick one of the listed levels");
  if (t.on == t.off()) v.fail(where + ".on", "is the off level", "pick a level other than the first");
}

// The one kind key, checked against the build system, and its value read by its kind.
void parse_kind(const manifest_validator& v, const json& j, const std::string& where, build_system system, toggle_spec& t) {
  std::vector<std::string> given;
  for (const auto& key : kind_keys())
    if (j.contains(key)) given.push_back(key);
  if (given.size() != 1)
    v.fail(where, given.empty() ? "says nothing about how it reaches the project" : "has more than one kind key",
           fmt::format("give exactly one of: {} (design §3.1)", fmt::join(kind_keys(), ", ")));
  const std::string& key = given.front();
  const toggle_kind& kind = *find_toggle_kind(key);
  if (!honours(kind, system))
    v.fail(where + "." + key, fmt::format("a {} project cannot honour \"{}\"", to_string(system), key), other_kinds(system));
  t.kind = &kind;
  kind.parse(v, j, key, where, t);
}

// `"values"`: level → what reaches the build or the environment instead of the level's name, for
// the kinds that hand a level over as text (option, var, env). Levels name variants and folders, so
// they stay short; a value may be anything, e.g. a set of compiler flags.
void parse_values(const manifest_validator& v, const json& j, const std::string& where, toggle_spec& t) {
  if (!j.contains("values")) return;
  const std::string key = where + ".values";
  const bool unset = t.kind->value_may_be_unset();
  if (!t.kind->takes_values()) v.fail(key, fmt::format("a {} toggle takes no values", t.kind->name()), t.kind->no_values_fix());
  if (!j["values"].is_object()) v.fail(key, "must be an object of level → value", "e.g. {\"O3\": \"-O3 -march=native\"}");
  for (const auto& [level, value] : j["values"].items()) {
    const std::string at = key + "." + level;
    if (!t.has_level(level))
      v.fail(at, fmt::format("\"{}\" is not one of the levels [{}]", level, fmt::join(t.levels, ", ")),
             "key each value by one of the levels, or add the level to \"levels\"");
    if (value.is_null() && unset) {
      t.values[level] = std::nullopt;  // unset: removed from the benchmark's environment
      continue;
    }
    if (!value.is_string())
      v.fail(at, fmt::format("must be a string{}, found {}", unset ? " or null (unset)" : "", value.type_name()),
             value.is_null() ? "null (the variable unset) is for env toggles: give the value as a string"
                             : "quote the value, e.g. \"-O3 -march=native\"");
    const std::string text = value.get<std::string>();
    if (text.find('\0') != std::string::npos)
      v.fail(at, "holds a NUL character", "remove it: a program's arguments and environment end at NUL");
    t.values[level] = text;
  }
}

}  // namespace

toggle_spec parse_toggle(const manifest_validator& v, const json& j, const std::string& where, build_system system) {
  if (!j.is_object()) v.fail(where, "must be an object", "write {\"id\": ..., \"option\": ...}");
  std::vector<std::string> keys{"id"};
  for (const auto& key : kind_keys()) keys.push_back(key);
  keys.insert(keys.end(), {"levels", "values", "on", "title", "phase", "requires"});
  v.only_keys(j, where, keys);
  toggle_spec t;
  if (!j.contains("id")) v.fail(where + ".id", "missing", "give the toggle an id such as \"A1\"");
  t.id = v.string(j["id"], where + ".id");
  if (!std::regex_match(t.id, id_pattern()))
    v.fail(where + ".id", fmt::format("\"{}\" is not a valid id", t.id),
           "use 1–16 characters [A-Z0-9_] starting with a capital letter, e.g. \"A1\"");
  parse_levels(v, j, where, t);
  parse_kind(v, j, where, system, t);
  parse_values(v, j, where, t);
  if (j.contains("title")) t.title = v.string(j["title"], where + ".title");
  if (j.contains("phase")) t.phase = v.string(j["phase"], where + ".phase");
  if (j.contains("requires")) {
    t.requires_caps = v.strings(j["requires"], where + ".requires");
    for (size_t i = 0; i < t.requires_caps.size(); ++i)
      if (t.requires_caps[i] != "cuda")
        v.fail(fmt::format("{}.requires[{}]", where, i), fmt::format("unknown capability \"{}\"", t.requires_caps[i]),
               "the known capabilities are: cuda");
  }
  return t;
}

std::string variable_name(const manifest_validator& v, const json& value, const std::string& key) {
  static const std::regex name_re("[A-Za-z_][A-Za-z0-9_]*");
  const std::string name = v.string(value, key);
  if (!std::regex_match(name, name_re))
    v.fail(key, fmt::format("\"{}\" is not a variable name", name), "use letters, digits and underscores");
  return name;
}

// `member?/feature` too: Cargo 1.65 reads `member/feature` as a dependency's feature, which an
// optional dependency enabled only through "dep:member" refuses; the weak form works on every Cargo.
bool is_cargo_feature(const std::string& name) {
  static const std::regex feature_re("[A-Za-z0-9_][A-Za-z0-9_+.-]*([?]?/[A-Za-z0-9_][A-Za-z0-9_+.-]*)?");
  return std::regex_match(name, feature_re);
}

}  // namespace abtest
