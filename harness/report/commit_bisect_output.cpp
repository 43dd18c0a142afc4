// A commit bisection's outcome for the terminal and --json (commit_bisect_output.hpp).
#include "harness/report/commit_bisect_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/counts/mechanism_format.hpp"
#include "harness/report/verdict_json.hpp"

namespace abtest::report {
namespace {

std::vector<std::string> candidate_commits(const commit_bisect_result& r) {
  std::vector<std::string> out;
  for (auto i : r.candidates) out.push_back(r.range[i]);
  return out;
}

nlohmann::json to_json(const commit_bisect_result& r) {
  nlohmann::json tested = nlohmann::json::array();
  for (const auto& [commit, verdict] : r.tested) tested.push_back({{"commit", commit}, {"verdict", verdict}});
  nlohmann::json out = {{"experiment", r.experiment}, {"good", r.range.front()}, {"bad", r.range.back()},
                        {"metric", r.metric}, {"variant", r.built_as}, {"verdict", stats::to_string(r.verdict)},
                        {"ratio", r.ratio}, {"first_bad", nullptr}, {"candidates", candidate_commits(r)},
                        {"tested", tested}, {"commits", r.range.size()}, {"runs", r.runs}, {"wall_s", r.wall_s}};
  if (r.first_bad) {
    out["first_bad"] = r.range[*r.first_bad];
    out["subject"] = r.first_bad_subject;
  }
  out["defaults_changed"] = abtest::to_json(r.flips);
  out["defaults_changed_in_range"] = abtest::to_json(r.range_flips);
  if (r.counts) {
    out["mechanisms"] = nlohmann::json::array();
    for (const auto& e : r.mechanisms) out["mechanisms"].push_back(report::to_json(e));
  }
  out["notes"] = r.notes;
  return out;
}

std::string to_text(const commit_bisect_result& r) {
  std::string out;
  for (const auto& n : r.notes) out += n + "\n";
  out += fmt::format("{} vs {} on {}: {} (ratio {:.4f})\n", r.range.back().substr(0, 12), r.range.front().substr(0, 12), r.metric,
                     stats::verdict_label(r.metric, r.verdict, r.direction), r.ratio);
  if (r.first_bad) {
    out += fmt::format("first bad commit: {} {}\n", r.range[*r.first_bad], r.first_bad_subject);
    for (const auto& flip : r.flips) out += fmt::format("  {} in this commit\n", abtest::to_text(flip));
    for (const auto& e : r.mechanisms) out += counts::format_terminal(e.block, {.indent = "  "});
  } else if (r.verdict == stats::verdict::slower) {
    out += fmt::format("the first bad commit is one of: {}\n", fmt::join(candidate_commits(r), ", "));
  } else {
    out += "BAD is not slower than GOOD — nothing to bisect\n";
  }
  if (!r.first_bad)
    for (const auto& flip : r.range_flips) out += fmt::format("  {} between GOOD and BAD\n", abtest::to_text(flip));
  return out + fmt::format("{} commits in the range, {} tested, {} runs, {:.1f} s\n", r.range.size(), r.tested.size(), r.runs,
                           r.wall_s);
}

}  // namespace

std::string render(const commit_bisect_result& r, format f) {
  if (f == format::json) return to_json(r).dump(2) + "\n";
  if (f == format::terminal) return to_text(r);
  throw std::invalid_argument("bisect --commits has no markdown or HTML output — `abtest report EXPERIMENT` writes the stored search's");
}

}  // namespace abtest::report
