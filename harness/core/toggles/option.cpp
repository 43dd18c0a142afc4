// The `option` toggle kind: a CMake cache variable or a Meson option, `-D<option>=<value>` at
// configure (design §3.1).
#include <fmt/format.h>

#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {
namespace {

class option_kind final : public toggle_kind {
 public:
  const char* name() const override { return "option"; }
  std::vector<build_system> systems() const override { return {build_system::cmake, build_system::meson}; }

  void parse(const manifest_validator& v, const nlohmann::json& j, const std::string& key, const std::string& where,
             toggle_spec& t) const override {
    t.option = variable_name(v, j[key], where + "." + key);
  }
  nlohmann::json example(const std::string&) const override { return "FASTLIB_USE_SIMD"; }
  bool takes_values() const override { return true; }
  std::string variable(const toggle_spec& t) const override { return t.option; }

  const std::string* configure_option(const toggle_spec& t) const override { return &t.option; }
  // One argument, never through a shell: `-DCMAKE_C_FLAGS=-O3 -march=native`. CMake and Meson take
  // the same form.
  std::optional<std::string> configure_definition(const toggle_spec& t, const std::string& value) const override {
    return fmt::format("-D{}={}", t.option, value);
  }
  // The same argument with its value quoted, for the eye: `-DCMAKE_C_FLAGS="-O3 -march=native"`.
  std::string shown(const toggle_spec& t, const std::string& value) const override {
    return *configure_definition(t, fmt::format("{:?}", value));
  }
};

}  // namespace

const toggle_kind& option_toggle_kind() {
  static const option_kind kind;
  return kind;
}

}  // namespace abtest
