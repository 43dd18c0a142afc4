// `abtest alerts`: the confirmed regressions in the store, grouped by change, and their triage —
// `abtest alerts ack|expect|invalid ID --note TEXT` (design §9.1).
#include <fmt/format.h>

#include "db/error.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/report/alerts.hpp"

namespace abtest::cli {
namespace {

struct alerts_flags {
  std::string state;
  bool all = false;
  std::int64_t id = 0;
  std::string note;
};

int list(const alerts_flags& f, const global_options& g) {
  std::optional<db::alert_state> state;
  if (!f.state.empty()) {
    try {
      state = db::parse<db::alert_state>(f.state);
    } catch (const std::invalid_argument& e) {
      throw usage_error(std::string("--state: ") + e.what());
    }
  }
  auto store = open_store_read_only(db_path(g, nullptr));
  auto alerts = store.list_alerts(state, !state && !f.all);
  print_result(g, report::alert_list{std::move(alerts), state ? std::string(db::to_string(*state)) : f.all ? "" : "open"});
  return 0;
}

int triage(db::alert_state to, const alerts_flags& f, const global_options& g) {
  if (f.note.empty()) throw usage_error("a triage needs --note TEXT — say why, e.g. --note \"expected: trades memory for speed\"");
  auto store = open_store(db_path(g, nullptr));
  try {
    store.set_alert_state(f.id, to, f.note);
  } catch (const db::error& e) {
    throw usage_error(fmt::format("{} — `abtest alerts --all` lists the alerts and their states", e.message()));
  }
  const auto a = store.find_alert(f.id);
  print_result(g, report::alert_triaged{*a});
  return 0;
}

}  // namespace

static const registrar alerts_command(62, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<alerts_flags>();
  auto* cmd = app.add_subcommand("alerts", "confirmed regressions (PR gate, nightly), one per change, and their triage");
  cmd->add_option("--state", f->state, "only alerts in this state: new, acknowledged, expected, invalid, fixed");
  cmd->add_flag("--all", f->all, "every alert, closed ones too (default: the open ones — new, acknowledged, expected)");
  const std::pair<const char*, db::alert_state> verbs[] = {
      {"ack", db::alert_state::acknowledged}, {"expect", db::alert_state::expected}, {"invalid", db::alert_state::invalid}};
  std::vector<std::pair<CLI::App*, db::alert_state>> subs;
  for (const auto& [name, state] : verbs) {
    auto* sub = cmd->add_subcommand(name, fmt::format("mark an alert {} (with a note)", db::to_string(state)));
    sub->add_option("id", f->id, "the alert's id (from `abtest alerts`)")->required();
    sub->add_option("--note", f->note, "why")->required();
    subs.emplace_back(sub, state);
  }
  cmd->callback([f, &g, &act, subs] {
    act = [f, &g, subs] {
      for (const auto& [sub, state] : subs)
        if (sub->parsed()) return triage(state, *f, g);
      return list(*f, g);
    };
  });
});

}  // namespace abtest::cli
