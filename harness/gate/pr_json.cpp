// The --json document of `abtest pr` (the contract in docs/design.md §9.2).
#include <cmath>
#include <stdexcept>

#include "harness/gate/pr_report.hpp"
#include "harness/report/metric_policy_text.hpp"

namespace abtest::gate {
namespace {

// A CI bound, or null when the estimate has none (too few rounds): never 0 or infinity.
nlohmann::json bound(const stats::log_estimate& e, double ratio) {
  return e.has_ci && std::isfinite(ratio) ? nlohmann::json(ratio) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json to_json(const metric_result& m) {
  nlohmann::json j = {{"metric", m.metric},
          {"verdict", stats::to_string(m.verdict)},
          {"n", m.estimate.n},
          {"baseline_median", m.base_median},
          {"candidate_median", m.head_median},
          {"ratio", m.estimate.ratio()},
          {"ci_low", bound(m.estimate, m.estimate.ratio_low())},
          {"ci_high", bound(m.estimate, m.estimate.ratio_high())}};
  j.update(report::policy_json(m.policy));  // better, better_from, margin, margin_from (design §4)
  return j;
}

namespace {

nlohmann::json to_json(const std::optional<experiment_outcome>& e) {
  if (!e) return nullptr;
  return {{"experiment", e->id}, {"seed", e->seed}, {"rounds", e->rounds}, {"stopped_early", e->stopped_early},
          {"budget_ended", e->budget_ended}, {"failed", e->failed}, {"mechanisms", e->mechanisms}};
}

nlohmann::json to_json(const alert_ref& a) {
  return {{"id", a.id}, {"source", a.source}, {"subject", a.subject}, {"state", a.state}, {"metrics", a.metrics}};
}

}  // namespace

nlohmann::json to_json(const pr_report& r) {
  const gate_result& g = r.result;
  nlohmann::json benchmarks = nlohmann::json::array(), changed = nlohmann::json::array();
  for (const auto& b : g.benchmarks)
    benchmarks.push_back({{"name", b.benchmark}, {"timed", b.decision == timing::timed}, {"reason", b.reason}});
  for (const auto& c : g.changed) {
    auto row = to_json(c.first);
    row["confirmation"] = to_string(c.state);
    row["reported"] = reported(c);
    row["confirmed_by"] = c.second ? to_json(*c.second) : nlohmann::json(nullptr);
    changed.push_back(std::move(row));
  }
  nlohmann::json recorded = nlohmann::json::array(), touched = nlohmann::json::array();
  for (const auto& a : r.alerts_recorded) recorded.push_back(to_json(a));
  for (const auto& a : r.alerts_touched) touched.push_back(to_json(a));
  return {{"base", r.base},
          {"head", r.head},
          {"head_ref", r.head_ref},
          {"variant", r.variant},
          {"verdict", r.exit_code == 0 ? "pass" : r.exit_code == 1 ? "fail" : "error"},
          {"exit_code", r.exit_code},
          {"fail_on", to_string(r.policy)},
          {"confirm", g.confirm == confirm_mode::rerun},
          {"summary", summary_line(r)},
          {"benchmarks", benchmarks},
          {"changed", changed},
          {"regressions", g.regressions()},
          {"improvements", g.improvements()},
          {"unconfirmed", g.unconfirmed()},
          {"invalid", g.invalid_metrics()},
          {"first", to_json(g.first)},
          {"confirmation", to_json(g.second)},
          {"alerts", {{"recorded", recorded}, {"touched", touched}}},
          {"wall_s", r.wall_s},
          {"budget_s", r.budget_s},
          {"defaults_changed", to_json(r.flips)},
          {"attribution", r.attribution ? to_json(*r.attribution) : nlohmann::json(nullptr)},
          {"notes", r.notes}};
}

std::string render(const pr_report& r, report::format f) {
  switch (f) {
    case report::format::json: {
      auto j = to_json(r);
      j["comment"] = r.comment_file;
      return j.dump(2) + "\n";
    }
    case report::format::markdown: return markdown_comment(r);
    case report::format::terminal: return markdown_comment(r) + "\n";
    case report::format::html: break;
  }
  throw std::invalid_argument("the pull-request gate has no HTML output — its comment is markdown");
}

}  // namespace abtest::gate
