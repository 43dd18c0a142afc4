// Builds recorded with their progress, details and cost (build_record.hpp).
#include "harness/experiment/build_record.hpp"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "harness/experiment/machine.hpp"
#include "harness/experiment/progress.hpp"

namespace abtest {
namespace {

db::time_point from_unix(double t) {
  return db::time_point(std::chrono::duration_cast<db::time_point::duration>(std::chrono::duration<double>(t)));
}

}  // namespace

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
  // What every toggle was in this build, read back from the tool where it can say (design §5, `details.resolved`).
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

}  // namespace abtest
