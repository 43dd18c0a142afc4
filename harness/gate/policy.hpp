// The gate's exit code by policy (`--fail-on regression|any|never`) and the design's exit-code table.
#pragma once

#include <string>

#include "harness/gate/confirmation.hpp"

namespace abtest::gate {

enum class fail_on { regression, any, never };
const char* to_string(fail_on f);
// "regression", "any", "never"; anything else is a usage error (exit 2) listing them.
fail_on parse_fail_on(const std::string& text);

// 4 when a metric is INVALID (the head fails its correctness checks: no speed verdict can pass it,
// whatever the policy) or a benchmark invocation failed, as for `run`; else 1 when the policy fails — regression: a reported SLOWER; any: a
// reported SLOWER or FASTER; never: nothing —; else 0. Unconfirmed changes never fail.
int policy_exit_code(const gate_result& r, fail_on policy);

}  // namespace abtest::gate
