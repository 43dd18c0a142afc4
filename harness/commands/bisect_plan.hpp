// The plan of a toggle bisection: --design read and the plan it asks for checked (its text and JSON: report/bisect_output.hpp).
#pragma once

#include <string>

#include "harness/search/price.hpp"

namespace abtest::cli {

// --design as a choice; a usage error (exit 2) otherwise.
search::design_choice parse_design_flag(const std::string& text);
// search::plan_search for k toggles (rounds: --rounds, 0 = planned); a design that does not fit k
// is a usage error.
search::search_plan plan_or_usage_error(int k, const search::unit_costs& costs, search::design_choice design, int rounds);

}  // namespace abtest::cli
