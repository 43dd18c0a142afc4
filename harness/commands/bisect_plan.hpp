// The price of a toggle bisection as `abtest bisect` shows it: the plan before anything is built, in the terminal and the JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "harness/search/price.hpp"

namespace abtest::cli {

nlohmann::json price_json(const search::price& p);  // {"runs", "builds", "wall_s"}
// The design, its rounds and price, why it was chosen, the alternatives and the unit costs.
nlohmann::json plan_json(const search::search_plan& p, const search::unit_costs& u);
// "plan (cheapest in wall time): half 2^(5-1) E=ABCD: 212 runs, 18 builds, ~19927 s (full 2^5: …)"
std::string plan_text(const search::search_plan& p);

// --design as a choice; a usage error (exit 2) otherwise.
search::design_choice parse_design_flag(const std::string& text);
// search::plan_search for k toggles (rounds: --rounds, 0 = planned); a design that does not fit k
// is a usage error.
search::search_plan plan_or_usage_error(int k, const search::unit_costs& costs, search::design_choice design, int rounds);

}  // namespace abtest::cli
