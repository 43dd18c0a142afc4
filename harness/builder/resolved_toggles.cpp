// What each toggle was in one build: CMake truth, value → level, and the build row's JSON of it.
#include "harness/builder/resolved_toggles.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace abtest {

std::optional<bool> cmake_truth(const std::string& value) {
  std::string up = value;
  for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const char* t : {"ON", "YES", "TRUE", "Y"})
    if (up == t) return true;
  for (const char* f : {"OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND", ""})
    if (up == f) return false;
  if (up.size() >= 9 && up.compare(up.size() - 9, 9, "-NOTFOUND") == 0) return false;
  // A number: true unless zero (CMake: "a non-zero number (including floating point numbers)").
  char* end = nullptr;
  const double n = std::strtod(value.c_str(), &end);
  if (end && *end == '\0' && end != value.c_str()) return n != 0;
  return std::nullopt;
}

std::optional<std::string> level_of_value(const toggle_spec& t, const std::string& value) {
  for (const auto& level : t.levels)
    if (t.value_of(level) == value) return level;
  const auto truth = cmake_truth(value);
  if (!truth) return std::nullopt;
  std::optional<std::string> found;
  for (const auto& level : t.levels) {
    const auto v = t.value_of(level);
    if (!v || cmake_truth(*v) != truth) continue;
    if (found) return std::nullopt;  // two levels of the same truth: the text alone could tell
    found = level;
  }
  return found;
}

std::optional<std::string> level_of_features(const toggle_spec& t, const std::set<std::string>& enabled) {
  const auto features_of = [&](const std::string& level) {
    const auto it = t.features.find(level);
    return it == t.features.end() ? std::vector<std::string>{} : it->second;
  };
  std::optional<std::string> on, off;
  for (const auto& level : t.levels) {
    const auto fs = features_of(level);
    if (fs.empty()) {
      if (!off) off = level;
    } else if (std::all_of(fs.begin(), fs.end(), [&](const auto& f) { return enabled.count(f) > 0; })) {
      on = level;
    }
  }
  return on ? on : off;
}

nlohmann::json to_json(const resolved_toggles& r) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [id, t] : r)
    out[id] = {{"value", t.value ? nlohmann::json(*t.value) : nlohmann::json(nullptr)},
               {"level", t.level ? nlohmann::json(*t.level) : nlohmann::json(nullptr)},
               {"set_by", t.handed ? "abtest" : "project"}};
  return out;
}

resolved_toggles resolved_from_json(const nlohmann::json& j) {
  resolved_toggles out;
  if (!j.is_object()) return out;
  for (const auto& [id, t] : j.items()) {
    if (!t.is_object()) continue;
    resolved_toggle r;
    if (const auto v = t.find("value"); v != t.end() && v->is_string()) r.value = v->get<std::string>();
    if (const auto l = t.find("level"); l != t.end() && l->is_string()) r.level = l->get<std::string>();
    r.handed = t.value("set_by", "") == "abtest";
    out[id] = r;
  }
  return out;
}

std::string to_text(const resolved_toggle& r) {
  if (r.level) return *r.level;
  return r.value ? fmt::format("\"{}\"", *r.value) : "unset";
}

std::vector<default_flip> default_flips(const resolved_toggles& before, const resolved_toggles& after) {
  std::vector<default_flip> out;
  for (const auto& [id, b] : before) {
    const auto a = after.find(id);
    if (a == after.end() || b.handed || a->second.handed) continue;
    // Unknown on both sides (nothing read back) is no evidence of a change.
    if (!b.value && !b.level && !a->second.value && !a->second.level) continue;
    const std::string from = to_text(b), to = to_text(a->second);
    if (from != to) out.push_back({id, from, to, b.level});
  }
  return out;
}

std::string to_text(const default_flip& f) { return fmt::format("{}: {} → {}", f.toggle, f.from, f.to); }

nlohmann::json to_json(const std::vector<default_flip>& flips) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : flips) out.push_back({{"toggle", f.toggle}, {"from", f.from}, {"to", f.to}, {"text", to_text(f)}});
  return out;
}

}  // namespace abtest
