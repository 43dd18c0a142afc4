// `abtest check`'s answer for the terminal and --json (see check_report.hpp).
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/gate/attribution.hpp"
#include "harness/gate/check_report.hpp"

namespace abtest::gate {
namespace {

nlohmann::json check_json(const check_report& r) {
  nlohmann::json out = {{"against", r.sha}, {"metric", r.metric}, {"variant", r.variant}, {"defaults_changed", to_json(r.flips)}};
  out["verdict"] = r.verdict;
  if (r.ratio) out["ratio"] = *r.ratio;
  if (r.experiment) out["experiment"] = *r.experiment;
  out["exit"] = r.exit_code;
  return out;
}

std::string check_text(const check_report& r) {
  std::string out = fmt::format("{} vs {} on {}: {} → exit {} ({})\n", r.variant, r.against, r.metric, r.verdict, r.exit_code,
                                r.exit_code == 0 ? "good" : r.exit_code == 1 ? "bad" : "skip");
  for (const auto& flip : r.flips) out += fmt::format("  {} since {}\n", to_text(flip), r.against);
  return out;
}

}  // namespace

std::string render(const check_report& r, report::format f) {
  if (f == report::format::json) return check_json(r).dump(2) + "\n";
  if (f == report::format::terminal) return check_text(r);
  throw std::invalid_argument("check has no markdown or HTML output — its answer is the exit code and one line");
}

}  // namespace abtest::gate
