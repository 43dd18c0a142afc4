// `abtest history`: per (variant, metric) series of nights from the store (a night: an experiment,
// or the shards of one group), change points (stored with their triage state, confirmed by an A/B
// with --confirm), a CUSUM alarm for the latest night; `history triage` sets a change point's state.
// A change point the A/B confirms slower opens an alert (or attaches to the open one of the same
// change); an alert whose metrics are back at their old level closes as fixed (design §9.1).
// The analysis is experiment/history_analysis.hpp's, its output report/history_output.hpp's.
#include <fmt/format.h>

#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/experiment/history_analysis.hpp"

namespace abtest::cli {
namespace {

struct history_flags {
  std::string variant, metric, kind, method = "e-divisive", canary = "canary";
  double margin_pct = 1.0;
  bool fail_on_regression = false, confirm = false;
  int confirm_rounds = 10;
  std::int64_t triage_id = 0;
  std::string triage_state, triage_note;
};

std::optional<db::experiment_kind> kind_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  try {
    return db::parse<db::experiment_kind>(text);
  } catch (const std::invalid_argument& e) {
    throw usage_error(fmt::format("--kind {}: {} — e.g. --kind nightly", text, e.what()));
  }
}

// The request the flags make; a bad --method or --confirm-rounds is a usage error.
history_request request_of(const history_flags& f, const global_options& g) {
  history_request r;
  r.variant = f.variant;
  r.metric = f.metric;
  r.kind = kind_of(f.kind);
  r.canary = f.canary;
  try {
    r.detect.detector = changepoint::parse_method(f.method);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  if (f.confirm_rounds < 2) throw usage_error("--confirm-rounds must be at least 2 for a paired comparison");
  r.detect.e_divisive.min_magnitude = f.margin_pct / 100;
  r.confirm = f.confirm;
  r.confirm_rounds = f.confirm_rounds;
  r.manifest = g.manifest;
  r.command_line = g.command_line;
  return r;
}

int history(const history_flags& f, const global_options& g) {
  auto store = open_store(db_path(g, nullptr));
  const auto result = analyze_history(store, request_of(f, g), context_for(g));
  print_result(g, result);
  return f.fail_on_regression && result.regression ? static_cast<int>(exit_code::regression) : 0;
}

int triage(const history_flags& f, const global_options& g) {
  db::changepoint_state state;
  try {
    state = db::parse<db::changepoint_state>(f.triage_state);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  auto store = open_store(db_path(g, nullptr));
  store.set_changepoint_state(f.triage_id, state, f.triage_note.empty() ? std::nullopt : std::optional(f.triage_note));
  if (!g.quiet) fmt::print("change point #{} is now {}\n", f.triage_id, f.triage_state);
  return 0;
}

}  // namespace

static const registrar history_command(60, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<history_flags>();
  auto* cmd = app.add_subcommand("history", "per (variant, metric) series, change points and a CUSUM alarm for the latest night");
  cmd->add_option("--variant", f->variant, "one variant key (default: every variant with a series)");
  cmd->add_option("--metric", f->metric, "one metric (default: every metric)");
  cmd->add_option("--kind", f->kind, "only experiments of this kind: nightly, run, matrix, ...");
  cmd->add_option("--method", f->method, "change-point detector: e-divisive (Otava) or pelt (MBIC)");
  cmd->add_option("--canary", f->canary, "variant whose series normalises the others when present (default: canary)");
  cmd->add_option("--margin", f->margin_pct, "minimum change in percent (δ, default 1)");
  cmd->add_flag("--confirm", f->confirm, "run the A/B of the builds on either side of each new change point and record "
                "its verdict; with --fail-on-regression only a change the A/B finds slower fails");
  cmd->add_option("--confirm-rounds", f->confirm_rounds, "rounds of each --confirm A/B (default 10)");
  cmd->add_flag("--fail-on-regression", f->fail_on_regression,
                "exit 1 on a slower change point still in state new, or a slower CUSUM alarm");
  auto* tri = cmd->add_subcommand("triage", "set a change point's state: new, acknowledged, fixed, false_positive");
  tri->add_option("id", f->triage_id, "change point id (from `abtest history`)")->required();
  tri->add_option("state", f->triage_state, "new | acknowledged | fixed | false_positive")->required();
  tri->add_option("--note", f->triage_note, "why");
  cmd->callback([f, &g, &act, tri] {
    act = [f, &g, tri] { return tri->parsed() ? triage(*f, g) : history(*f, g); };
  });
});

}  // namespace abtest::cli
