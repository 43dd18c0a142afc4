// What `abtest pr` reports — one gate result with its commits, policy and alerts — as the markdown
// comment (comment.cpp) and the --json document (pr_json.cpp, the contract of docs/design.md §9.2).
//
//   gate::pr_report rep{.base = base_sha, .head = head_sha, .result = r, .policy = fail_on::regression};
//   rep.exit_code = gate::policy_exit_code(r, rep.policy);
//   write(comment_file, gate::markdown_comment(rep));
//   std::cout << gate::render(rep, report::format::json);   // as every command's result (design §9.3)
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/gate/attribution.hpp"
#include "harness/gate/confirmation.hpp"
#include "harness/gate/policy.hpp"
#include "harness/report/exporter.hpp"

namespace abtest::gate {

// An open alert of the store that the pull request touches (one of its metrics was measured here),
// or one this run opened or joined with a confirmed regression.
struct alert_ref {
  std::int64_t id = 0;
  std::string source;   // "pr" or "nightly"
  std::string subject;  // the branch or variant it is about
  std::string state;    // new, acknowledged, expected
  std::vector<std::string> metrics;
};

struct pr_report {
  std::string base, head;          // full shas: the merge base and the head
  std::string head_ref;            // the branch (or ref) the head came from, as alerts name it
  std::string variant = "defaults";  // how both commits were built: their own defaults, + the toggles named
  std::vector<default_flip> flips;   // defaults that differ between the two builds (design §5)
  std::optional<flip_attribution> attribution;  // once a change is confirmed and a default flipped
  gate_result result;
  fail_on policy = fail_on::regression;
  int exit_code = 0;
  double wall_s = 0;
  double budget_s = 0;
  std::string rounds_rule;         // how each experiment chose its rounds, e.g. "adaptive, 10 to 30 rounds"
  std::vector<alert_ref> alerts_recorded;  // opened or joined by this run's confirmed regressions
  std::vector<alert_ref> alerts_touched;   // other open alerts of the measured metrics
  std::vector<std::string> notes;
  std::string comment_file;  // where the markdown comment was written ("" before it is)
};

// One summary line: what the gate concluded, in words a reviewer reads first.
std::string summary_line(const pr_report& r);
// The comment: the summary line; a table of the changed metrics with their CIs and confirmation;
// the benchmarks not timed and why; collapsible details of how it measured.
std::string markdown_comment(const pr_report& r);
nlohmann::json to_json(const pr_report& r);
// The gate's result through the one output interface (design §9.3): json — to_json with "comment",
// the file written; markdown — the comment; terminal — the comment and a newline. Here and not in
// report/ because report/ is below gate/ (gate reads report's policy texts). No HTML:
// std::invalid_argument.
std::string render(const pr_report& r, report::format f);
// One metric's row of the --json document: verdict, n, medians, ratio and its CI (null bounds without one).
nlohmann::json to_json(const metric_result& m);

}  // namespace abtest::gate
