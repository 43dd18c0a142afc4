// Arms from builds, their digests and their relinked layouts (arms.hpp).
#include "harness/experiment/arms.hpp"

#include <fmt/format.h>

#include <chrono>
#include <set>
#include <stdexcept>

#include "harness/builder/layouts.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"
#include "harness/experiment/progress.hpp"

namespace abtest {

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

}  // namespace abtest
