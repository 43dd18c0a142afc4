// The `feature` toggle kind: Cargo features per level — `"feature": "f"` (the on level's one
// feature) or `"features": {"<level>": ["f", …]}` (design §3.1).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

class feature_kind final : public toggle_kind {
 public:
  const char* name() const override { return "feature"; }
  std::vector<std::string> keys() const override { return {"feature", "features"}; }
  std::vector<build_system> systems() const override { return {build_system::cargo}; }

  void parse(const manifest_validator& v, const nlohmann::json& j, const std::string& key, const std::string& where,
             toggle_spec& t) const override {
    const std::string at = where + "." + key;
    if (key == "feature") {
      t.features[t.on] = {v.string(j[key], at)};
      check(v, t.features[t.on].front(), at);
      return;
    }
    if (!j[key].is_object()) v.fail(at, "must be an object of level → [features]", "e.g. {\"4\": [\"cap4\"]}");
    for (const auto& [level, list] : j[key].items()) {
      if (!t.has_level(level))
        v.fail(at + "." + level, fmt::format("\"{}\" is not one of the levels [{}]", level, fmt::join(t.levels, ", ")),
               "key the features by level");
      t.features[level] = v.strings(list, at + "." + level);
      for (const auto& f : t.features[level]) check(v, f, at + "." + level);
    }
  }
  nlohmann::json example(const std::string& key) const override {
    return key == "feature" ? nlohmann::json("smallvec") : nlohmann::json{{"ON", {"smallvec", "cuzk-core?/planted_slow"}}};
  }
  std::string no_values_fix() const override { return "remove it: \"features\" maps each level to its Cargo features"; }

  const std::map<std::string, std::vector<std::string>>* cargo_features(const toggle_spec& t) const override {
    return &t.features;
  }

 private:
  static void check(const manifest_validator& v, const std::string& f, const std::string& at) {
    if (!is_cargo_feature(f)) v.fail(at, fmt::format("\"{}\" is not a Cargo feature name", f), "e.g. \"smallvec\"");
  }
};

}  // namespace

const toggle_kind& feature_toggle_kind() {
  static const feature_kind kind;
  return kind;
}

}  // namespace abtest
