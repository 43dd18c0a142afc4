// The pull-request comment in GitHub-flavoured markdown: summary, changed metrics, how it measured.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/gate/pr_report.hpp"
#include "harness/report/metric_policy_text.hpp"

namespace abtest::gate {
namespace {

std::string short_sha(const std::string& sha) { return sha.substr(0, 12); }

std::string ratio_text(const metric_result& m) {
  if (!m.estimate.has_ci) return fmt::format("{:.4f}", m.estimate.ratio());
  return fmt::format("{:.4f} [{:.4f}, {:.4f}]", m.estimate.ratio(), m.estimate.ratio_low(), m.estimate.ratio_high());
}

std::string label(const metric_result& m) {
  return stats::verdict_label(m.metric, m.verdict, m.policy.direction) + report::policy_note(m.policy);
}

std::string confirmation_text(const changed_metric& c) {
  switch (c.state) {
    case confirmation::confirmed: return fmt::format("confirmed: {}", ratio_text(*c.second));
    case confirmation::unconfirmed:
      return c.second ? fmt::format("**unconfirmed**: the rerun read {} {}", label(*c.second), ratio_text(*c.second))
                      : "**unconfirmed**: the rerun did not measure it";
    case confirmation::not_checked: return "not checked (--no-confirm)";
  }
  return "";
}

std::string experiment_text(const char* what, const experiment_outcome& e) {
  return fmt::format("- {}: experiment `{}`, seed {}, {} rounds{}{}\n", what, e.id.empty() ? "-" : e.id, e.seed, e.rounds,
                     e.stopped_early ? ", stopped when every watched metric was decisive" : "",
                     e.budget_ended ? ", **stopped by the wall budget**" : "");
}

std::string alert_text(const alert_ref& a) {
  return fmt::format("#{} ({} {}, {}: {})", a.id, a.source, a.subject, a.state, fmt::join(a.metrics, ", "));
}

// The defaults the change flipped and, for each confirmed change, what putting each back gives.
std::string flips_markdown(const pr_report& r) {
  if (r.flips.empty()) return "";
  std::string out = "Defaults changed:\n";
  for (const auto& f : r.flips) out += fmt::format("- `{}` in this change\n", to_text(f));
  if (r.attribution)
    for (const auto& c : r.result.changed) {
      if (c.state != confirmation::confirmed) continue;
      for (const auto& rev : r.attribution->reverted)
        out += fmt::format("- `{}`: {} {:.2f}×; {}\n", c.first.metric, label(c.first), c.first.estimate.ratio(),
                           reverted_text(rev, head_row(*r.attribution, c.first)));
    }
  return out + "\n";
}

}  // namespace

std::string summary_line(const pr_report& r) {
  const gate_result& g = r.result;
  const auto timed = timed_benchmarks(g.benchmarks);
  const std::size_t untimed = g.benchmarks.size() - timed.size();
  std::string what;
  if (g.any_failed())
    what = "a benchmark failed — its error is under How it measured";
  else if (!g.invalid_metrics().empty())
    what = fmt::format("INVALID: the head fails its correctness checks ({})", fmt::join(g.invalid_metrics(), ", "));
  else if (timed.empty())
    what = untimed == 1 ? std::string("no benchmark can change: it runs identical programs on both sides — nothing timed")
                        : fmt::format("no benchmark can change: all {} run identical programs on both sides — nothing timed", untimed);
  else if (g.regressions() > 0)
    what = fmt::format("{} regression(s) {}", g.regressions(), g.confirm == confirm_mode::rerun ? "confirmed" : "(not confirmed: --no-confirm)");
  else if (g.improvements() > 0)
    what = fmt::format("{} improvement(s), no regression", g.improvements());
  else
    what = "no change found";
  std::string extra;
  if (g.unconfirmed() > 0) extra += fmt::format(", {} change(s) unconfirmed", g.unconfirmed());
  if (!timed.empty()) extra += fmt::format("; {} benchmark(s) timed, {} not timed (identical programs)", timed.size(), untimed);
  // A default the change flipped, beside the verdict: the likeliest cause of what moved (design §5).
  std::vector<std::string> flips;
  for (const auto& f : r.flips) flips.push_back(to_text(f));
  if (!flips.empty()) extra += fmt::format("; {} in this change", fmt::join(flips, "; "));
  const char* verdict = r.exit_code == 0 ? "pass" : r.exit_code == 1 ? "fail" : "error";
  return fmt::format("**abtest pr: {}** — {}{} ({}..{}, {:.0f} s)", verdict, what, extra, short_sha(r.base), short_sha(r.head),
                     r.wall_s);
}

std::string markdown_comment(const pr_report& r) {
  const gate_result& g = r.result;
  std::string out = summary_line(r) + "\n\n";
  if (!g.changed.empty()) {
    out += "| metric | base median | head median | head / base [95% CI] | verdict | confirmation |\n";
    out += "|---|---:|---:|---:|---|---|\n";
    for (const auto& c : g.changed)
      out += fmt::format("| `{}` | {:.6g} | {:.6g} | {} | {}{} | {} |\n", c.first.metric, c.first.base_median, c.first.head_median,
                         ratio_text(c.first), label(c.first), reported(c) ? "" : " (not reported)", confirmation_text(c));
    out += "\n";
  } else if (g.first) {
    out += fmt::format("No metric of the {} timed benchmark(s) moved.\n\n", timed_benchmarks(g.benchmarks).size());
  }
  out += flips_markdown(r);
  std::vector<std::string> untimed;
  for (const auto& b : g.benchmarks)
    if (b.decision == timing::identical) untimed.push_back(fmt::format("`{}`", b.benchmark));
  if (!untimed.empty()) out += fmt::format("Not timed: identical programs — {}.\n\n", fmt::join(untimed, ", "));
  if (!r.alerts_recorded.empty() || !r.alerts_touched.empty()) {
    for (const auto& a : r.alerts_recorded) out += fmt::format("Alert recorded: {}\n", alert_text(a));
    for (const auto& a : r.alerts_touched) out += fmt::format("Touches open alert {}\n", alert_text(a));
    out += "\n";
  }
  out += "<details><summary>How it measured</summary>\n\n";
  out += fmt::format("- base (merge base) `{}`, head `{}`{}, each built as it ships (`{}`: {}) in its own worktree on this host\n",
                     r.base, r.head, r.head_ref.empty() ? "" : fmt::format(" ({})", r.head_ref), r.variant,
                     r.variant == "defaults" ? "every toggle at the commit's own default"
                                             : "the toggles named at the same level on both sides, the rest at each commit's own default");
  for (const auto& b : g.benchmarks)
    out += fmt::format("- `{}`: {} — {}\n", b.benchmark, b.decision == timing::timed ? "timed" : "not timed", b.reason);
  if (!r.rounds_rule.empty())
    out += fmt::format("- interleaved rounds (RMIT), paired per round; {}; wall budget {:.0f} s\n", r.rounds_rule, r.budget_s);
  if (g.first) out += experiment_text("first experiment", *g.first);
  if (g.second) out += experiment_text("confirmation (fresh seed)", *g.second);
  if (r.attribution) {
    out += experiment_text("attribution (the head with each flipped default put back, beside the base and the head)", r.attribution->experiment);
    for (const auto& n : r.attribution->notes) out += fmt::format("- {}\n", n);
  }
  if (g.confirm == confirm_mode::none)
    out += "- **--no-confirm**: moved metrics are reported from the first experiment alone, without the confirmation rerun\n";
  else if (!g.second && g.first)
    out += "- no confirmation was needed: nothing moved\n";
  out += fmt::format("- policy `--fail-on {}`, exit code {}\n", to_string(r.policy), r.exit_code);
  for (const auto& n : r.notes) out += fmt::format("- {}\n", n);
  for (const auto* e : {g.first ? &*g.first : nullptr, g.second ? &*g.second : nullptr})
    if (e)
      for (const auto& n : e->notes) out += fmt::format("- {}\n", n);
  if (g.first && !g.first->mechanisms.empty()) {
    out += "\n#### Mechanisms (Valgrind counts of the first experiment's arms, exact)\n\n";
    for (const auto& block : g.first->mechanisms) out += block;
  }
  out += "\n</details>\n";
  return out;
}

}  // namespace abtest::gate
