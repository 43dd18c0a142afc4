// `abtest history`: per (variant, metric) series from the store, change points (stored with their
// triage state), a CUSUM alarm for the latest night; `history triage` sets a change point's state.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <map>

#include "db/time_text.hpp"
#include "harness/changepoint/canary.hpp"
#include "harness/changepoint/detect.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"

namespace abtest::cli {
namespace {

struct history_flags {
  std::string variant, metric, kind, method = "e-divisive", canary = "canary";
  double margin_pct = 1.0;
  bool fail_on_regression = false, confirm = false;
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

// One value per experiment (the first arm running the variant), oldest first.
std::vector<db::series_point> one_per_night(std::vector<db::series_point> points) {
  std::vector<db::series_point> out;
  for (auto& p : points)
    if (out.empty() || out.back().experiment_id != p.experiment_id) out.push_back(std::move(p));
  return out;
}

// `--confirm`: the A/B of the builds on either side of a change point needs both build folders.
std::string confirm_note(db::results_store& store, const std::string& before, const std::string& after, const std::string& variant) {
  auto folder = [&](const std::string& id) -> std::optional<std::string> {
    const auto e = store.find_experiment(id);
    if (!e) return std::nullopt;
    for (const auto& a : e->arms)
      if (a.variant == variant && a.build_id)
        if (const auto b = store.find_build(*a.build_id); b && std::filesystem::exists(b->build_dir)) return b->build_dir;
    return std::nullopt;
  };
  const auto a = folder(before), b = folder(after);
  if (!a || !b)
    return fmt::format("cannot confirm: the build folder of {} is gone (or was never recorded) — rebuild both commits "
                       "and compare them with `abtest compare {} {} --variant {}`",
                       !a ? before : after, before, after, variant);
  return fmt::format("builds still present ({} and {}); running two build folders side by side is not supported by "
                     "`abtest run` yet — compare the stored nights with `abtest compare {} {} --variant {}`",
                     *a, *b, before, after, variant);
}

int history(const history_flags& f, const global_options& g) {
  auto store = open_store(db_path(g, nullptr));
  const auto kind = kind_of(f.kind);
  changepoint::detect_options options;
  try {
    options.detector = changepoint::parse_method(f.method);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  options.e_divisive.min_magnitude = f.margin_pct / 100;
  std::vector<std::pair<std::string, std::string>> keys;
  for (const auto& [v, m] : store.series_keys(kind))
    if ((f.variant.empty() || v == f.variant) && (f.metric.empty() || m == f.metric) && v != f.canary) keys.emplace_back(v, m);
  if (keys.empty())
    throw usage_error(fmt::format("no history for {} / {} — run `abtest matrix --nightly` (or `abtest run`) first",
                                  f.variant.empty() ? "any variant" : f.variant, f.metric.empty() ? "any metric" : f.metric));
  nlohmann::json out = nlohmann::json::array();
  bool regression = false;
  for (const auto& [variant, metric] : keys) {
    const auto points = one_per_night(store.series(variant, metric, kind));
    std::vector<changepoint::night_value> raw;
    for (const auto& p : points) raw.push_back({p.experiment_id, p.median});
    std::vector<changepoint::night_value> canary;
    for (const auto& p : one_per_night(store.series(f.canary, metric, kind))) canary.push_back({p.experiment_id, p.median});
    const bool normalized = !canary.empty();
    std::vector<changepoint::night_value> used = normalized ? changepoint::normalize_by_canary(raw, canary) : raw;
    if (!normalized)
      for (auto& p : used) p.value = std::log(p.value);
    std::vector<double> x;
    for (const auto& p : used) x.push_back(p.value);
    const auto a = changepoint::analyze_series(x, options);
    std::map<std::string, const db::series_point*> by_id;
    for (const auto& p : points) by_id[p.experiment_id] = &p;
    nlohmann::json cps = nlohmann::json::array();
    for (const auto& cp : a.points) {
      const auto& at = *by_id.at(used[cp.index].night);
      db::changepoint_record r{0, variant, metric, at.experiment_id, at.started_at, cp.magnitude, cp.p_value,
                               db::changepoint_state::new_, std::nullopt};
      r.id = store.record_changepoint(r);
      std::string state = "new";
      for (const auto& s : store.list_changepoints(variant, metric))
        if (s.id == r.id) state = std::string(db::to_string(s.state));
      regression |= state == "new" && cp.magnitude > 0;
      nlohmann::json j{{"id", r.id}, {"experiment", at.experiment_id}, {"at", db::format_utc(at.started_at)},
                       {"magnitude", cp.magnitude}, {"p_value", cp.p_value}, {"state", state}};
      if (f.confirm) j["confirm"] = confirm_note(store, used[cp.index - 1].night, at.experiment_id, variant);
      cps.push_back(j);
    }
    const std::string alarm = a.cusum.state == changepoint::alarm::slower   ? "slower"
                              : a.cusum.state == changepoint::alarm::faster ? "faster"
                                                                            : "none";
    regression |= alarm == "slower";
    nlohmann::json series = nlohmann::json::array();
    for (std::size_t i = 0; i < used.size(); ++i)
      series.push_back({{"experiment", used[i].night}, {"median", by_id.at(used[i].night)->median}, {"value", a.screened[i]}});
    out.push_back({{"variant", variant}, {"metric", metric}, {"nights", used.size()}, {"normalized_by", normalized ? f.canary : ""},
                   {"outliers", a.outliers}, {"changepoints", cps}, {"cusum", {{"alarm", alarm}, {"upper", a.cusum.upper},
                   {"lower", a.cusum.lower}}}, {"series", series}});
    if (!g.json && !g.quiet) {
      fmt::print("{} {}: {} nights{}, {} outliers screened, latest night: {}\n", variant, metric, used.size(),
                 normalized ? fmt::format(" (÷ {})", f.canary) : "", a.outliers.size(),
                 alarm == "none" ? "in control" : "CUSUM alarm, " + alarm);
      for (const auto& j : cps) {
        fmt::print("  change point #{} at {} ({}): {:+.2f}%  p={:.2g}  [{}]\n", j["id"].get<std::int64_t>(),
                   j["experiment"].get<std::string>(), j["at"].get<std::string>(), 100 * j["magnitude"].get<double>(),
                   j["p_value"].get<double>(), j["state"].get<std::string>());
        if (j.contains("confirm")) fmt::print("    {}\n", j["confirm"].get<std::string>());
      }
    }
  }
  if (g.json) std::cout << nlohmann::json({{"method", f.method}, {"series", out}}).dump(2) << "\n";
  return f.fail_on_regression && regression ? static_cast<int>(exit_code::regression) : 0;
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

static const registrar reg(60, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<history_flags>();
  auto* cmd = app.add_subcommand("history", "per (variant, metric) series, change points and a CUSUM alarm for the latest night");
  cmd->add_option("--variant", f->variant, "one variant key (default: every variant with a series)");
  cmd->add_option("--metric", f->metric, "one metric (default: every metric)");
  cmd->add_option("--kind", f->kind, "only experiments of this kind: nightly, run, matrix, ...");
  cmd->add_option("--method", f->method, "change-point detector: e-divisive (Otava) or pelt (MBIC)");
  cmd->add_option("--canary", f->canary, "variant whose series normalises the others when present (default: canary)");
  cmd->add_option("--margin", f->margin_pct, "minimum change in percent (δ, default 1)");
  cmd->add_flag("--confirm", f->confirm, "check whether the builds around each change point can be compared");
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
