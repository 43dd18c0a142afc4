// Helpers every subcommand shares: the manifest, the results database, the experiment context.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <ranges>

#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/exec/host.hpp"
#include "harness/experiment/progress.hpp"

namespace abtest::cli {
namespace {

// An experiment recorded as running by a process of this host that no longer exists (SIGKILL,
// power loss) is incomplete: say so in the database, so `list` and `--resume` see the truth.
void mark_dead_runs_incomplete(db::results_store& store) {
  const std::string host = exec::collect_host_facts().hostname;
  for (const auto& e : store.list_experiments())
    if (owner_died(e, host)) store.set_experiment_status(e.id, db::experiment_status::incomplete);
}

std::vector<std::pair<int, register_fn>>& registry() {
  static std::vector<std::pair<int, register_fn>> commands;
  return commands;
}

}  // namespace

bool owner_died(const db::experiment_record& e, const std::string& this_host) {
  if (e.status != db::experiment_status::running) return false;
  const auto& owner = e.config.value("owner", nlohmann::json::object());
  if (owner.value("host", "") != this_host) return false;
  const pid_t pid = owner.value("pid", 0);
  return !(pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM));  // alive, or not ours to signal
}

registrar::registrar(int order, register_fn fn) { registry().emplace_back(order, std::move(fn)); }

std::vector<register_fn> registered_commands() {
  auto sorted = registry();
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<register_fn> out;
  for (auto& [order, fn] : sorted) out.push_back(std::move(fn));
  return out;
}

manifest load_manifest_for(const global_options& g) { return load_manifest(locate_manifest(g.manifest)); }

std::filesystem::path db_path(const global_options& g, const manifest* m) {
  if (!g.db.empty()) return g.db;
  if (const char* env = std::getenv("ABTEST_DB"); env && *env) return env;
  if (m) return m->state_dir() / "results.db";
  // Without a loaded manifest, still prefer the folder of the one that would be used.
  const auto manifest_path = locate_manifest(g.manifest);
  if (std::filesystem::exists(manifest_path))
    return std::filesystem::absolute(manifest_path).parent_path() / ".abtest" / "results.db";
  return std::filesystem::path(".abtest") / "results.db";
}

db::results_store open_store(const std::filesystem::path& path) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  db::results_store store(path, db::open_mode::read_write_create);
  mark_dead_runs_incomplete(store);
  return store;
}

db::results_store open_store_read_only(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path))
    throw usage_error(fmt::format("no results database at {} — run an experiment first, or pass --db PATH", path.string()));
  return db::results_store(path, db::open_mode::read_only);
}

db::experiment_record experiment_or_latest(db::results_store& store, const std::string& id) {
  if (!id.empty()) {
    auto e = store.find_experiment(id);
    if (!e) throw usage_error(fmt::format("no experiment {} — `abtest list` shows the recorded ones", id));
    return *e;
  }
  for (auto& e : store.list_experiments())  // newest first
    if (!e.config.contains("parent")) return e;
  throw usage_error("no experiment recorded yet — run one (`abtest run`), or pass --db PATH");
}

experiment_context context_for(const global_options& g) {
  experiment_context ctx;
  ctx.verbose = g.verbose;
  if (g.quiet) {
    ctx.on_progress = {};
    return ctx;
  }
  auto printer = std::make_shared<progress_printer>(stderr, ::isatty(STDERR_FILENO) == 1);
  ctx.on_progress = [printer, json = g.json](const progress& p) {
    if (json && p.what != progress::kind::note && p.what != progress::kind::output) return;
    printer->show(p);
  };
  return ctx;
}

std::map<std::string, std::string> parse_params(const manifest& m, const std::vector<std::string>& items) {
  auto params = m.params;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw usage_error(fmt::format("--param {}: expected K=V — e.g. --param preset=tiny", item));
    const std::string key = item.substr(0, eq);
    if (!m.params.count(key))
      throw usage_error(fmt::format("--param {}: the manifest has no parameter \"{}\" — known: {}", item, key,
                                    fmt::join(std::views::keys(m.params), ", ")));
    params[key] = item.substr(eq + 1);
  }
  return params;
}

}  // namespace abtest::cli
