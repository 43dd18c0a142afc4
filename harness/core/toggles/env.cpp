// The `env` toggle kind: a variable of the benchmark process, set or (a null value) removed; its
// levels share one build (design §3.1).
#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

class env_kind final : public toggle_kind {
 public:
  const char* name() const override { return "env"; }
  // Run time only: variants that differ only in env toggles are one build, measured as different
  // programs (builder.cpp's program_digest).
  bool changes_build() const override { return false; }

  void parse(const manifest_validator& v, const nlohmann::json& j, const std::string& key, const std::string& where,
             toggle_spec& t) const override {
    t.var = variable_name(v, j[key], where + "." + key);
  }
  nlohmann::json example(const std::string&) const override { return "ZK_MSM_WINDOW"; }
  bool takes_values() const override { return true; }
  bool value_may_be_unset() const override { return true; }
  std::string variable(const toggle_spec& t) const override { return t.var; }

  const std::string* run_variable(const toggle_spec& t) const override { return &t.var; }
};

}  // namespace

const toggle_kind& env_toggle_kind() {
  static const env_kind kind;
  return kind;
}

}  // namespace abtest
