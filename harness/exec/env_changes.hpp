// What a child process changes in the environment it inherits: variables set, replaced or removed.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace abtest::exec {

// A value adds the variable or replaces its inherited value; nullopt removes it, so that a program
// can be measured with a variable unset (an `env` toggle's `null` value, docs/manifest.md):
//   env_changes env{{"OMP_NUM_THREADS", "1"}, {"MALLOC_ARENA_MAX", std::nullopt}};
using env_changes = std::map<std::string, std::optional<std::string>>;

}  // namespace abtest::exec
