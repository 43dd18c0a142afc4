// --design read, and the plan of a toggle bisection checked against its toggles.
#include "harness/commands/bisect_plan.hpp"

#include <stdexcept>

#include "harness/core/errors.hpp"

namespace abtest::cli {

search::design_choice parse_design_flag(const std::string& text) {
  try {
    return search::parse_design_choice(text);
  } catch (const std::invalid_argument& e) {
    throw usage_error_from(e);
  }
}

search::search_plan plan_or_usage_error(int k, const search::unit_costs& costs, search::design_choice design, int rounds) {
  search::plan_options po;
  po.design = design;
  po.matrix_rounds = rounds;
  try {
    return search::plan_search(k, costs, po);
  } catch (const std::invalid_argument& e) {
    throw usage_error_from(e);
  }
}

}  // namespace abtest::cli
