// What `abtest check` reports — is the checkout slower than a good revision, both built as they ship —
// for the terminal and --json (design §9: exit 0 good, 1 bad, 125 skip, for `git bisect run`).
//
//   gate::check_report r{.against = "v1.2", .sha = sha, .metric = "proof.total_s", .variant = "defaults"};
//   r.verdict = "slower", r.exit_code = 1;
//   std::cout << gate::render(r, report::format::terminal);  // "defaults vs v1.2 on proof.total_s: slower → exit 1 (bad)"
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/builder/resolved_toggles.hpp"
#include "harness/report/exporter.hpp"

namespace abtest::gate {

struct check_report {
  std::string against;  // the good revision as named: --against, or the newest refs/bisect/good-*
  std::string sha;      // its commit
  std::string metric;
  std::string variant;  // how both sides were built: "defaults", "defaults+ID…"
  std::vector<default_flip> flips;  // defaults the checkout flipped since `against` (design §5)
  std::string verdict;  // slower | faster | same | inconclusive | invalid; "unbuildable" when the checkout does not build
  std::optional<double> ratio;            // checkout / good, once compared
  std::optional<std::string> experiment;  // the comparison's experiment (the second, after an inconclusive first)
  int exit_code = 0;    // 0 good, 1 bad, 125 skip
};

// terminal: "defaults vs v1.2 on proof.total_s: slower → exit 1 (bad)" and a line per flipped
// default; json: {against (the sha), metric, variant, defaults_changed[], verdict, ratio, experiment,
// exit}. Here and not in report/ for the reason pr_report is: the flips' JSON is the gate's. No
// markdown or HTML: std::invalid_argument.
std::string render(const check_report& r, report::format f);

}  // namespace abtest::gate
