// The gate's exit code by policy.
#include "harness/gate/policy.hpp"

#include <fmt/format.h>

#include <utility>

#include "harness/core/errors.hpp"

namespace abtest::gate {

namespace {
constexpr std::pair<fail_on, const char*> spellings[] = {
    {fail_on::regression, "regression"}, {fail_on::any, "any"}, {fail_on::never, "never"}};
}  // namespace

const char* to_string(fail_on f) {
  for (const auto& [value, name] : spellings)
    if (value == f) return name;
  return "regression";
}

fail_on parse_fail_on(const std::string& text) {
  for (const auto& [value, name] : spellings)
    if (text == name) return value;
  throw usage_error(fmt::format("--fail-on {}: expected regression, any or never", text));
}

int policy_exit_code(const gate_result& r, fail_on policy) {
  if (!r.invalid_metrics().empty() || r.any_failed()) return static_cast<int>(abtest::exit_code::bench_failed);
  const bool fails = policy == fail_on::regression ? r.regressions() > 0
                     : policy == fail_on::any      ? r.regressions() + r.improvements() > 0
                                                   : false;
  return fails ? static_cast<int>(abtest::exit_code::regression) : 0;
}

}  // namespace abtest::gate
