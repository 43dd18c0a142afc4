// `abtest pr [--base REF] [--head REF]`: the pull-request gate — the merge base and the head built as
// commit arms with their own defaults (a default the change flips is named and attributed, design §5),
// the benchmarks whose programs differ timed interleaved, every move confirmed by a second
// experiment, a markdown comment and an exit code by policy (design §9.2; the run:
// experiment/pr_gate.hpp; the logic: harness/gate).
#include <fmt/format.h>

#include <cstdlib>
#include <fstream>

#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/errors.hpp"
#include "harness/experiment/pr_gate.hpp"
#include "harness/gate/pr_report.hpp"

namespace abtest::cli {
namespace {

namespace fs = std::filesystem;

struct pr_flags {
  pr_request request;   // its `measure` resolved from `measure` below
  std::string comment;  // default: <manifest dir>/.abtest/pr-comment.md
  measurement_flags measure;
};

// The comment's file, and GitHub's job summary when the job has one.
void write_comment(const fs::path& file, const std::string& markdown) {
  if (file.has_parent_path()) fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::trunc);
  out << markdown;
  if (!out.flush()) throw usage_error(fmt::format("--comment {}: cannot write it — give a writable path", file.string()));
  if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary) {
    std::ofstream step(summary, std::ios::app);
    step << markdown << "\n";
    if (!step.flush()) throw usage_error(fmt::format("$GITHUB_STEP_SUMMARY ({}): cannot append to it — unset it or fix the path", summary));
  }
}

int pr(const pr_flags& f, const global_options& g) {
  const manifest m = load_manifest_for(g);
  pr_request q = f.request;
  q.measure = resolve_measurement(f.measure, m, rounds_rule::adaptive_when_zero);
  gate::pr_report rep = start_pr_report(m, q);
  auto store = open_store(db_path(g, &m));
  run_pr_gate(m, q, store, context_for(g), g.command_line, rep);
  const fs::path comment = f.comment.empty() ? m.state_dir() / "pr-comment.md" : fs::path(f.comment);
  write_comment(comment, gate::render(rep, report::format::markdown));
  rep.comment_file = comment.string();
  print_result(g, rep);
  if (!g.json && !g.quiet) fmt::print(stderr, "comment written to {}\n", comment.string());
  return rep.exit_code;
}

}  // namespace

static const registrar pr_command(47, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<pr_flags>();
  pr_request& q = f->request;
  auto* cmd = app.add_subcommand("pr", "the pull-request gate: merge base vs head, changed programs timed, moves confirmed");
  cmd->add_option("--base", q.base, "the base branch; its merge base with the head is compared (default: origin/main, else main)");
  cmd->add_option("--head", q.head, "the head commit (default: HEAD)");
  cmd->add_option("--toggle,-t", q.toggles,
                  "build both sides with this toggle ID[=LEVEL] (repeatable; default: none — every toggle at each commit's own default)");
  cmd->add_option("--bench", q.benches, "only this benchmark (repeatable; default: all)");
  cmd->add_option("--budget-s", q.budget_s, "wall budget of the measurements in seconds (default 600)");
  cmd->add_option("--max-rounds", q.max_rounds, "adaptive: at most this many rounds per experiment (default 30)");
  cmd->add_option("--layouts", q.layouts, "K seeded links per side (with --rounds); the confirmation links afresh");
  cmd->add_flag("--counts", q.counts, "also count both sides' benchmarks once under Valgrind: a mechanism block per moved benchmark");
  cmd->add_flag("--no-confirm", q.no_confirm, "report moves without the confirming second experiment (to measure its false alerts)");
  cmd->add_option("--fail-on", q.fail_on, "exit 1 on: regression (default), any change, never");
  cmd->add_option("--comment", f->comment, "the markdown comment's file (default: .abtest/pr-comment.md beside the manifest)");
  f->measure.rounds = 0;
  add_measurement_options(cmd, f->measure, {.rounds_help = "fixed rounds per experiment instead of adaptive (default: adaptive)",
                                            .simulate_help = ""});
  cmd->callback([f, &g, &act] { act = [f, &g] { return pr(*f, g); }; });
});

}  // namespace abtest::cli
