// Experiment orchestration over the builder, the scheduler and the results store.
#include "harness/experiment/experiment.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <set>

#include "db/ids.hpp"
#include "db/transaction.hpp"
#include "harness/builder/layouts.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"
#include "harness/exec/host.hpp"
#include "harness/report/comparison_output.hpp"
#include "harness/experiment/counts.hpp"
#include "harness/experiment/progress.hpp"

namespace abtest {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_stop_signal(int) { g_stop.store(true); }

// Installs SIGINT/SIGTERM handlers for the duration of a schedule and restores the old ones.
class stop_signals {
 public:
  stop_signals() {
    g_stop = false;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~stop_signals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

db::time_point from_unix(double t) {
  return db::time_point(std::chrono::duration_cast<db::time_point::duration>(std::chrono::duration<double>(t)));
}

}  // namespace

bool host_has_cuda() { return exec::host_has_cuda_device(); }

std::vector<std::string> inert_toggles(const manifest& m, const variant& v) {
  std::vector<std::string> out;
  for (const auto& [id, level] : v.levels) {
    const toggle_spec* t = m.find_toggle(id);
    if (!t) continue;
    for (const auto& cap : t->requires_caps)
      if (cap == "cuda" && !host_has_cuda()) out.push_back(id);
  }
  return out;
}

std::int64_t current_machine(db::results_store& store, const nlohmann::json& more) {
  const auto facts = exec::collect_host_facts();
  db::machine_record m;
  m.fingerprint = facts.fingerprint;
  m.hostname = facts.hostname;
  m.cpu_model = facts.cpu_model;
  m.cores = facts.cores;
  m.memory_mib = static_cast<std::int64_t>(facts.memory_mib);
  if (!facts.gpus.empty()) m.gpu = fmt::format("{}", fmt::join(facts.gpus, ", "));
  m.os = facts.os;
  m.compiler = facts.compiler;
  m.details = exec::to_json(facts);
  const auto policy = exec::read_frequency_policy();
  if (policy.governor) m.details["governor"] = *policy.governor;
  if (policy.turbo) m.details["turbo"] = *policy.turbo;
  for (const auto& [k, v] : more.items()) m.details[k] = v;
  if (!m.gpu && more.contains("gpu_name")) m.gpu = more["gpu_name"].get<std::string>();
  return store.upsert_machine(m);
}

arm_plan arm_for(const manifest& m, const variant& v, const recorded_build& b, std::string role) {
  const build_outcome& o = b.outcome;
  arm_plan a{v.key(m), v.levels, std::move(role), o.bin_dir, {}, b.build_id, {}, run_env(v, m)};
  for (const auto& [target, bin] : o.binaries) a.programs[target] = bin.path;
  a.binaries_digest = program_digest(o.binaries_digest, a.env);
  return a;
}

std::string programs_digest(const manifest& m, const arm_plan& arm, const std::map<std::filesystem::path, std::string>& hashed) {
  std::string all;
  for (const auto& target : benchmark_programs(m))
    if (const auto it = arm.programs.find(target); it != arm.programs.end()) {
      const auto known = hashed.find(it->second);
      all += target + "=" + (known != hashed.end() ? known->second : sha256_file(it->second)) + "\n";
    }
  return program_digest(all.empty() ? std::string{} : sha256_hex(all), arm.env);
}

std::vector<arm_plan> seeded_layouts(const arm_plan& arm, std::uint64_t experiment_seed, int k) {
  std::vector<arm_plan> arms(k, arm);
  for (int i = 0; i < k; ++i) {
    arms[i].layout = i;
    arms[i].layout_seed = layout_seed(experiment_seed, arm.key, i);
  }
  return arms;
}

namespace {

// The build row of one relinked layout: the build it relinks, with the layout's programs, folder,
// link time and seed.
db::build_record layout_build(db::results_store& store, const arm_plan& layout, const std::set<std::string>& targets,
                              const std::map<std::filesystem::path, std::string>& hashed, double link_s) {
  db::build_record rec;
  if (layout.build_id)
    if (auto of = store.find_build(*layout.build_id)) rec = std::move(*of);
  rec.id = 0;
  rec.uuid.clear();
  rec.variant = layout.key;
  rec.levels = layout.levels;
  rec.started_at = std::chrono::system_clock::now() - std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                                          std::chrono::duration<double>(link_s));
  rec.duration_s = link_s;
  rec.status = db::build_status::ok;
  rec.binaries.clear();
  for (const auto& target : targets) {  // only the relinked programs: the others are the build's own
    const std::filesystem::path& path = layout.programs.at(target);
    rec.binaries.push_back({target, path.string(), hashed.at(path)});
    rec.build_dir = path.parent_path().string();  // <build>/layouts/<seed of layout 0>/<k>
  }
  rec.objects_compiled = 0;
  rec.cache_hits = rec.cache_misses = std::nullopt;
  rec.links = static_cast<std::int64_t>(targets.size());
  rec.log_path = rec.log_tail = std::nullopt;
  nlohmann::json details = rec.details.is_object() ? rec.details : nlohmann::json::object();
  details.erase("compiled");
  details.erase("configured");
  details["layout"] = {{"index", layout.layout}, {"seed", layout.layout_seed}, {"linker", "ld.lld --shuffle-sections"}};
  if (layout.build_id) details["layout"]["of_build"] = *layout.build_id;
  rec.details = std::move(details);
  return rec;
}

}  // namespace

std::vector<arm_plan> layout_arms(const manifest& m, const run_plan& plan, const arm_plan& arm, const build_outcome& o,
                                  int k, db::results_store& store, const experiment_context& ctx) {
  std::vector<arm_plan> arms = seeded_layouts(arm, plan.seed, k);
  std::vector<std::uint64_t> seeds;
  for (const auto& a : arms) seeds.push_back(a.layout_seed);
  std::set<std::string> targets;
  for (const auto& name : plan.benchmarks)
    if (const benchmark_spec* b = m.find_benchmark(name))
      for (const auto& t : benchmark_programs(m, *b))
        if (arm.programs.count(t)) targets.insert(t);
  if (targets.empty())
    throw usage_error(fmt::format("--layouts relinks the benchmarks' programs, and no benchmark of this run names one as "
                                  "{{bin}}/NAME — write the program that way in the manifest's command"));
  std::vector<double> link_s(arms.size(), 0.0);
  for (const auto& target : targets) {
    std::vector<layout_link> links;
    try {
      links = relink_layouts({o.dir, target, o.dir / "layouts" / fmt::format("{:015x}", seeds.front())}, seeds);
    } catch (const std::runtime_error& e) {
      throw usage_error_from(e);
    }
    for (const auto& l : links) {
      arms[l.index].programs[target] = l.program;
      link_s[l.index] += l.link_s;
    }
  }
  double total_s = 0;
  for (std::size_t i = 0; i < arms.size(); ++i) {
    auto& a = arms[i];
    std::map<std::filesystem::path, std::string> hashed;  // the relinked programs, read once
    for (const auto& target : targets) hashed[a.programs.at(target)] = sha256_file(a.programs.at(target));
    a.binaries_digest = programs_digest(m, a, hashed);
    a.build_id = store.insert_build(layout_build(store, a, targets, hashed, link_s[i]));
    total_s += link_s[i];
  }
  ctx.report(progress::kind::build_done,
             fmt::format("  linked {} layouts of {} ({} program{}) in {:.1f} s", k, arm.key, targets.size(),
                         targets.size() == 1 ? "" : "s", total_s));
  return arms;
}

void relink_cache::built(const std::string& key, const manifest& m, build_outcome o) {
  built_.insert_or_assign(key, std::pair{&m, std::move(o)});
}

std::vector<arm_plan> relink_cache::layouts(const run_plan& plan, const arm_plan& arm, int k) {
  auto& cached = links_[{arm.key, plan.seed}];
  if (static_cast<int>(cached.size()) != k) {
    const auto it = built_.find(arm.key);
    if (it == built_.end()) throw std::logic_error("relink_cache: " + arm.key + " was not built here");
    cached = layout_arms(*it->second.first, plan, arm, it->second.second, k, store_, ctx_);
  }
  return cached;
}

nlohmann::json build_details(const manifest& m, const build_outcome& o) {
  nlohmann::json d = {{"system", to_string(m.build.system)}, {"bin", o.bin_dir.string()}};
  if (!o.tool_version.empty()) d["tool"] = o.tool_version;
  if (!o.applied.empty()) d["applied"] = o.applied;
  if (!o.cost.compiled.empty()) d["compiled"] = o.cost.compiled;
  if (!o.cost.notes.empty()) d["notes"] = o.cost.notes;
  if (o.configured_now) d["configured"] = true;
  // What the levels handed the build where a `values` entry made it other than the level's name:
  // the variant and its folder carry only the names.
  for (const auto& [id, value] : handed_values(o.v, m))
    if (const auto r = o.resolved.find(id); r == o.resolved.end() || r->second.handed) d["values"][id] = value;
  // What every toggle was in this build, read back from the tool where it can say (issue #37).
  if (!o.resolved.empty()) d["resolved"] = to_json(o.resolved);
  return d;
}

std::string describe_cost(const build_outcome& o) {
  std::string text = fmt::format("{} {:.1f} s", o.ok ? "built" : "FAILED after", o.duration_s);
  if (o.cost.objects_compiled) text += fmt::format(", {} compiled", *o.cost.objects_compiled);
  if (o.cost.cache_hits) text += fmt::format(", {} from the cache", *o.cost.cache_hits);
  if (o.cost.links) text += fmt::format(", {} linked", *o.cost.links);
  if (o.configured_now) text += ", configured";
  return text;
}

std::optional<double> last_build_seconds(db::results_store& store, const std::string& key, std::int64_t machine_id,
                                         bool configured) {
  std::optional<double> alike, any;
  const auto builds = store.list_builds();  // oldest first
  for (auto b = builds.rbegin(); b != builds.rend() && !alike; ++b) {
    if (b->variant != key || b->status != db::build_status::ok || b->machine_id != machine_id || !b->duration_s) continue;
    if (b->details.contains("layout")) continue;  // a relink of a build (--layouts), not a build
    if (!any) any = b->duration_s;
    if (b->details.value("configured", false) == configured) alike = b->duration_s;
  }
  return alike ? alike : any;
}

recorded_build build_and_record(const manifest& m, const variant& v, db::results_store& store, const builder& b,
                                const experiment_context& ctx) {
  const std::string key = b.key(v);
  const std::int64_t machine_id = current_machine(store);
  // What to expect: this variant's last build here, else base's (the nearest thing on a first build);
  // a folder not there yet will be configured and built whole, an existing one built incrementally.
  const bool fresh = !std::filesystem::exists(b.folder(v));
  std::optional<double> last_s = last_build_seconds(store, key, machine_id, fresh);
  std::string expect = last_s ? fmt::format(" (last build {:.1f} s)", *last_s) : "";
  if (!last_s && key != "base")
    if ((last_s = last_build_seconds(store, "base", machine_id, fresh))) expect = fmt::format(" (base's last build {:.1f} s)", *last_s);
  ctx.report(progress::kind::build_start, fmt::format("building {} in {}{}", key, b.folder(v).string(), expect));
  build_tracker steps(ctx, key, last_s);
  recorded_build r{b.build(v, [&](std::string_view line) { steps.line(line); }), 0};
  const auto& o = r.outcome;
  db::build_record rec;
  rec.variant = o.key;
  rec.levels = v.levels;
  rec.source_dir = m.source_dir.string();
  if (!o.source.commit.empty()) rec.commit_sha = o.source.commit;
  rec.dirty = o.source.dirty;
  rec.compiler = o.compiler;
  rec.flags = o.flags;
  rec.build_dir = o.dir.string();
  rec.started_at = from_unix(o.started_at_unix);
  rec.duration_s = o.duration_s;
  rec.status = o.ok ? db::build_status::ok : db::build_status::failed;
  rec.log_path = o.log_path.string();
  rec.log_tail = o.log_tail;
  rec.machine_id = machine_id;
  for (const auto& [target, bin] : o.binaries) rec.binaries.push_back({target, bin.path.string(), bin.sha256});
  rec.objects_compiled = o.cost.objects_compiled;
  rec.cache_hits = o.cost.cache_hits;
  rec.cache_misses = o.cost.cache_misses;
  rec.links = o.cost.links;
  rec.details = build_details(m, o);
  r.build_id = store.insert_build(rec);
  ctx.report(progress::kind::build_done, "  " + describe_cost(o));
  for (const auto& note : o.cost.notes) ctx.report(progress::kind::note, "  note: " + note);
  return r;
}

std::string create_experiment(db::results_store& store, const manifest* m, const run_plan& plan,
                              const std::string& command_line, std::int64_t machine_id,
                              const nlohmann::json& extra_config, const std::string& id) {
  db::experiment_record e;
  e.started_at = std::chrono::system_clock::now();
  e.kind = db::parse<db::experiment_kind>(plan.kind);
  e.id = id.empty() ? db::new_experiment_id(e.kind, e.started_at) : id;
  e.command_line = command_line;
  if (m) {
    e.manifest_path = m->path.string();
    e.project = m->project;
  }
  e.config = plan.to_json();
  for (const auto& [k, v] : extra_config.items()) e.config[k] = v;
  e.config["owner"] = {{"host", exec::collect_host_facts().hostname}, {"pid", ::getpid()}};
  e.seed = static_cast<std::int64_t>(plan.seed);
  e.status = db::experiment_status::running;
  e.machine_id = machine_id;
  for (int i = 0; i < static_cast<int>(plan.arms.size()); ++i) {
    db::arm_record a;
    a.idx = i;
    a.variant = plan.arms[i].key;
    a.levels = plan.arms[i].levels;
    a.build_id = plan.arms[i].build_id;
    // The plan's role where it has one: with --layouts the baseline is arms 0 … K−1, not arm 0 alone.
    a.role = plan.arms[i].role.empty() ? (i == 0 ? db::arm_role::baseline : db::arm_role::candidate)
                                       : db::parse<db::arm_role>(plan.arms[i].role);
    e.arms.push_back(std::move(a));
  }
  store.create_experiment(e);
  return e.id;
}

schedule_result measure(db::results_store& store, const manifest& m, const run_plan& plan, const std::string& id,
                        sample_source& source, std::vector<sample>& samples, const experiment_context& ctx) {
  const std::int64_t machine_id = current_machine(store);
  stop_signals signals;
  round_tracker rounds(ctx, plan, static_cast<int>(samples.size()));
  scheduler_hooks hooks;
  // Samples held per (round, warm-up), so that a round's last sample is known when it is recorded.
  const std::size_t per_round = plan.arms.size() * plan.benchmarks.size();
  std::map<std::pair<int, bool>, std::size_t> in_round;
  for (const auto& s : samples) ++in_round[{s.round, s.warmup}];
  bool round_ended = false;
  hooks.should_stop = [&] {
    if (g_stop.load()) return true;
    return round_ended && ctx.stop_between_rounds && ctx.stop_between_rounds();
  };
  hooks.record = [&](sample& s) {
    round_ended = ++in_round[{s.round, s.warmup}] == per_round;
    s.experiment_id = id;
    s.machine_id = machine_id;
    const auto& arm = plan.arms[s.arm];
    s.build_id = arm.build_id;
    if (!arm.binaries_digest.empty()) s.binary_hash = arm.binaries_digest;
    if (const auto load = exec::read_load_average()) s.load_avg = load->one;
    // What the store cannot keep is dropped here, so that the sample kept in memory is the one stored.
    std::erase_if(s.metrics, [](const auto& metric) { return !std::isfinite(metric.second); });
    s.started_at = std::chrono::floor<std::chrono::milliseconds>(s.started_at);
    s.uuid = db::new_uuid();
    s.id = store.insert_sample(s);
    rounds.recorded(s);
  };
  const schedule_result result = run_schedule(m, plan, source, samples, hooks);
  ctx.report(progress::kind::idle, "");
  return result;
}

void conclude(db::results_store& store, const std::string& id, const analysis_result& analysis, bool interrupted) {
  std::vector<db::verdict_record> rows;
  for (const auto& r : analysis.rows) rows.push_back(report::to_record(r, id));
  store.replace_verdicts(id, rows);
  store.set_experiment_status(id, interrupted ? db::experiment_status::incomplete : db::experiment_status::complete,
                              std::chrono::system_clock::now());
}

execution execute(db::results_store& store, const manifest& m, const run_plan& plan, const std::string& id,
                  sample_source& source, std::vector<sample>& samples, const experiment_context& ctx) {
  execution e;
  e.schedule = measure(store, m, plan, id, source, samples, ctx);
  e.analysis = analyze(plan, samples);
  e.counts = store.list_counts(id);
  add_count_verdicts(e.analysis, plan, e.counts);
  conclude(store, id, e.analysis, e.schedule.interrupted);
  return e;
}

int exit_code_for(const analysis_result& a, bool fail_on_regression) {
  if (a.any_failed() || a.any_invalid()) return static_cast<int>(exit_code::bench_failed);
  if (fail_on_regression && a.any_slower()) return static_cast<int>(exit_code::regression);
  return 0;
}

}  // namespace abtest
