// The plan and its price as bisect prints them and stores them in its JSON.
#include "harness/commands/bisect_plan.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "harness/core/errors.hpp"

namespace abtest::cli {

nlohmann::json price_json(const search::price& p) { return {{"runs", p.runs}, {"builds", p.builds}, {"wall_s", p.wall_s}}; }

// The plan and its price, as printed before anything is built and stored in the JSON.
nlohmann::json plan_json(const search::search_plan& p, const search::unit_costs& u) {
  nlohmann::json alternatives = nlohmann::json::array();
  for (const auto& a : p.alternatives) alternatives.push_back({{"design", a.label}, {"price", price_json(a.expected)}});
  return {{"design", p.chosen.label},
          {"rounds", p.chosen.rounds},
          {"price", price_json(p.chosen.expected)},
          {"reason", p.reason},
          {"alternatives", alternatives},
          {"costs", {{"build_s", u.build_s}, {"run_s", u.run_s}, {"sigma", u.sigma}, {"basis", u.basis}}}};
}

std::string plan_text(const search::search_plan& p) {
  const auto line = [](const search::priced_design& d) {
    return fmt::format("{}: {} runs, {} builds, ~{:.0f} s", d.label, d.expected.runs, d.expected.builds, d.expected.wall_s);
  };
  std::string others;
  for (const auto& a : p.alternatives)
    if (a.label != p.chosen.label) others += (others.empty() ? "" : "; ") + line(a);
  return fmt::format("plan ({}): {}{}", p.reason, line(p.chosen), others.empty() ? "" : " (" + others + ")");
}

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
