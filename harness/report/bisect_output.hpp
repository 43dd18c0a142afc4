// What `abtest bisect` (toggles) shows: a search's result for the terminal and the --json contract
// of design §9, and its plan's price.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/counts/mechanism.hpp"
#include "harness/report/exporter.hpp"
#include "harness/search/price.hpp"
#include "harness/search/toggle_bisect.hpp"

namespace abtest::report {

// A toggle search as decided: the search's report, its terms split by direction (design §9:
// culprits push the way of the verdict, offsets pull the other way; `rejected` were not supported),
// and what the command adds — the wall clock, the unit costs, the counts screen's mechanism blocks.
struct bisect_result {
  std::string experiment, metric;
  search::bisect_report r;
  search::attribution split;
  int worse = 1;            // the sign of ln ratio that makes the metric worse
  bool regression = false;  // the overall verdict, or a supported term, makes the metric worse
  std::vector<std::string> notes;
  double wall_s = 0;
  std::string wall_basis = "measured";  // or "modeled" (--simulate: runs and builds at the unit costs)
  search::unit_costs costs;             // what the plan was priced with, before anything was built
  search::unit_costs priced_with;       // what the search and the full factorial were priced with, after
  // --counts: the screen's experiment ("" without one), the toggles it left untimed, and each term's
  // mechanism block by term name ("A1=4", "PAIR1*PAIR2") where it was counted.
  std::string screen_experiment;
  std::vector<std::string> not_timed;
  std::map<std::string, counts::mechanism> mechanisms;
  std::string stopped;  // "" (finished), "interrupted" (Ctrl-C) or "budget" (--budget-s)
};

// "PAIR1*PAIR2": a term as bisect names it.
std::string term_name(const std::vector<std::string>& toggles);

// "stopped by Ctrl-C after 412 s: undecided NO_INLINE 1.0400 (CI 0.9900–1.0900)" — a stopped
// search's last word (also its last step's note in the store).
std::string stopped_text(const bisect_result& o);

// terminal: notes, the overall verdict, the method and its price against a full factorial, then a
// line per culprit, offset, rejected candidate and undecided term (mechanism blocks under them).
// json: design §9's bisect object. No markdown or html of its own (`abtest report EXPERIMENT` writes
// the stored search's): std::invalid_argument.
std::string render(const bisect_result& o, format f);

nlohmann::json price_json(const search::price& p);  // {"runs", "builds", "wall_s"}
// The design, its rounds and price, why it was chosen, the alternatives and the unit costs.
nlohmann::json plan_json(const search::search_plan& p, const search::unit_costs& u);
// "plan (cheapest in wall time): half 2^(5-1) E=ABCD: 212 runs, 18 builds, ~19927 s (full 2^5: …)"
std::string plan_text(const search::search_plan& p);

}  // namespace abtest::report
