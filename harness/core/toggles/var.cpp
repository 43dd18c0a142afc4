// The `var` toggle kind: a command build's variable, `{NAME}` in build.command and `$NAME` in its
// environment (design §3.1).
#include <fmt/format.h>

#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

class var_kind final : public toggle_kind {
 public:
  const char* name() const override { return "var"; }
  std::vector<build_system> systems() const override { return {build_system::command}; }

  void parse(const manifest_validator& v, const nlohmann::json& j, const std::string& key, const std::string& where,
             toggle_spec& t) const override {
    t.var = variable_name(v, j[key], where + "." + key);
  }
  nlohmann::json example(const std::string&) const override { return "OPT"; }
  bool takes_values() const override { return true; }
  std::string variable(const toggle_spec& t) const override { return t.var; }

  const std::string* command_variable(const toggle_spec& t) const override { return &t.var; }
  std::string shown(const toggle_spec& t, const std::string& value) const override {
    return fmt::format("{}={:?}", t.var, value);
  }
};

}  // namespace

const toggle_kind& var_toggle_kind() {
  static const var_kind kind;
  return kind;
}

}  // namespace abtest
