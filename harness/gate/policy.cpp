// The gate's exit code by policy.
#include "harness/gate/policy.hpp"

#include <fmt/format.h>

#include "harness/core/errors.hpp"

namespace abtest::gate {

const char* to_string(fail_on f) {
  switch (f) {
    case fail_on::regression: return "regression";
    case fail_on::any: return "any";
    case fail_on::never: return "never";
  }
  return "regression";
}

fail_on parse_fail_on(const std::string& text) {
  if (text == "regression") return fail_on::regression;
  if (text == "any") return fail_on::any;
  if (text == "never") return fail_on::never;
  throw usage_error(fmt::format("--fail-on {}: expected regression, any or never", text));
}

int policy_exit_code(const gate_result& r, fail_on policy) {
  if (!r.invalid_metrics().empty()) return static_cast<int>(abtest::exit_code::bench_failed);
  const bool fails = policy == fail_on::regression ? r.regressions() > 0
                     : policy == fail_on::any      ? r.regressions() + r.improvements() > 0
                                                   : false;
  return fails ? static_cast<int>(abtest::exit_code::regression) : 0;
}

}  // namespace abtest::gate
