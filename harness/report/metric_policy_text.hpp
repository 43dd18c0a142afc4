// A metric's direction and margin as reports state them (design §4): the policy a verdict
// was judged by, stored in its details, read back, and written as text and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "db/records.hpp"
#include "harness/stats/metric_policy.hpp"

namespace abtest::report {

// {"better": "higher", "better_from": "inferred", "margin": 0.01, "margin_from": "default"}: the
// verdict's details["policy"] and the keys every --json verdict carries (margin relative).
nlohmann::json policy_json(const stats::metric_policy& p);

// The policy a stored verdict was judged by: its details["policy"]; a verdict stored before issue
// #36 has none, and then the direction is inferred from its name and the margin is the default 1%.
stats::metric_policy policy_of(const db::verdict_record& v);

// What a table adds after a verdict where the policy is not the plain one (better lower, the run's
// margin): " · better higher (inferred)", " · margin 3% (manifest)"; "" otherwise.
std::string policy_note(const stats::metric_policy& p);

}  // namespace abtest::report
