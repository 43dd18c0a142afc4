// The registry of toggle kinds: one row per kind, each defined in its own file here (design §3.1).
#include <algorithm>

#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest {

// Each kind file defines one of these.
const toggle_kind& option_toggle_kind();
const toggle_kind& feature_toggle_kind();
const toggle_kind& var_toggle_kind();
const toggle_kind& env_toggle_kind();
const toggle_kind& patch_toggle_kind();
const toggle_kind& revert_toggle_kind();

const std::vector<const toggle_kind*>& toggle_kinds() {
  static const std::vector<const toggle_kind*> rows{
      &option_toggle_kind(), &feature_toggle_kind(), &var_toggle_kind(),
      &env_toggle_kind(),    &patch_toggle_kind(),   &revert_toggle_kind(),
  };
  return rows;
}

const toggle_kind* find_toggle_kind(std::string_view key) {
  for (const toggle_kind* k : toggle_kinds()) {
    const auto keys = k->keys();
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) return k;
  }
  return nullptr;
}

bool toggle_spec::changes_build() const { return kind->changes_build(); }
bool toggle_spec::changes_source() const { return kind->changes_source(); }

}  // namespace abtest
