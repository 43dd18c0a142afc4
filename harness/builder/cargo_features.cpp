// A Cargo package's features from `cargo metadata`, and the feature flags of a build.
#include "harness/builder/cargo_features.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace abtest {

namespace fs = std::filesystem;

std::optional<cargo_feature_table> parse_cargo_features(const std::string& metadata_json, const fs::path& cargo_toml) {
  const auto j = nlohmann::json::parse(metadata_json, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  const auto packages = j.find("packages");
  if (packages == j.end() || !packages->is_array()) return std::nullopt;
  const fs::path want = cargo_toml.lexically_normal();
  for (const auto& p : *packages) {
    if (!p.is_object()) continue;
    const auto path = p.find("manifest_path");
    if (path == p.end() || !path->is_string() || fs::path(path->get<std::string>()).lexically_normal() != want) continue;
    cargo_feature_table table;
    const auto features = p.find("features");
    if (features == p.end() || !features->is_object()) return table;
    for (const auto& [name, list] : features->items()) {
      auto& out = table[name];
      if (!list.is_array()) continue;
      for (const auto& e : list)
        if (e.is_string()) out.push_back(e.get<std::string>());
    }
    return table;
  }
  return std::nullopt;
}

std::set<std::string> feature_closure(const cargo_feature_table& table, const std::set<std::string>& features) {
  std::set<std::string> out;
  std::vector<std::string> todo(features.begin(), features.end());
  while (!todo.empty()) {
    const std::string f = todo.back();
    todo.pop_back();
    if (!out.insert(f).second) continue;
    const auto it = table.find(f);
    if (it == table.end()) continue;
    // "dep:x" and "x/y" enable no feature of this package ("x?/y" neither).
    for (const auto& e : it->second)
      if (e.find(':') == std::string::npos && e.find('/') == std::string::npos) todo.push_back(e);
  }
  return out;
}

cargo_feature_flags feature_flags(const cargo_feature_table& table, const std::set<std::string>& wanted,
                                  const std::set<std::string>& unwanted) {
  cargo_feature_flags out;
  out.features = wanted;
  const bool has_default = table.count("default") > 0;
  const std::set<std::string> defaults = has_default ? feature_closure(table, {"default"}) : std::set<std::string>{};
  const auto enables_unwanted = [&](const std::string& f) {
    const auto c = feature_closure(table, {f});
    return std::any_of(c.begin(), c.end(), [&](const auto& x) { return unwanted.count(x) > 0 && !wanted.count(x); });
  };
  if (std::any_of(defaults.begin(), defaults.end(), enables_unwanted)) {
    out.no_default_features = true;
    for (const auto& f : defaults)
      if (f != "default" && !enables_unwanted(f)) out.features.insert(f);
  }
  std::set<std::string> start = out.features;
  if (has_default && !out.no_default_features) start.insert("default");
  out.enabled = feature_closure(table, start);
  return out;
}

}  // namespace abtest
