// `abtest build`: build variants (each in its own folder) and record the builds, without measuring;
// `--matrix` builds a whole design in the order that reuses most.
#include <fmt/format.h>

#include <iostream>
#include <set>

#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/build_matrix.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/core/toggles/toggle_kind.hpp"

namespace abtest::cli {
namespace {

struct build_flags {
  std::vector<std::string> toggles, variants, benches;
  bool matrix = false, dry_run = false;
  std::string design = "full";
  int jobs = 0;
};

// handed_values as the build sees them, e.g. `-DCMAKE_C_FLAGS="-O3 -march=native"` (each kind says how).
std::vector<std::string> handed_value_lines(const manifest& m, const variant& v) {
  std::vector<std::string> out;
  for (const auto& [id, value] : handed_values(v, m)) {
    const toggle_spec& t = m.toggle(id);
    if (std::string line = t.kind->shown(t, value); !line.empty()) out.push_back(std::move(line));
  }
  return out;
}

int build(const build_flags& f, const global_options& g) {
  const manifest m = load_manifest_for(g);
  std::vector<variant> targets;
  if (f.matrix) {
    if (!f.variants.empty()) throw usage_error("--matrix builds a design; --variant names single variants — give one or the other");
    targets = reuse_order(design_variants(m, f.toggles, f.design));
  } else {
    if (f.design != "full") throw usage_error("--design goes with --matrix");
    if (!f.toggles.empty()) targets.push_back(variant_from_flags(f.toggles, m));
    for (const auto& spec : f.variants) targets.push_back(parse_variant_spec(spec, m));
    if (targets.empty()) targets.push_back(variant{});
  }
  for (const auto& b : f.benches)
    if (!m.find_benchmark(b)) throw usage_error(fmt::format("--bench {}: the manifest has no such benchmark", b));
  // Variants that differ only in env toggles are one build.
  std::vector<variant> unique;
  std::set<std::string> seen;
  for (const auto& v : targets)
    if (seen.insert(build_part(v, m).key(m)).second) unique.push_back(build_part(v, m));
  builder_options bo;
  bo.jobs = f.jobs;
  bo.targets = targets_for(m, f.benches);
  builder b(m, bo);
  if (f.dry_run) {  // what would be built, where: the manifest and the variants are valid
    nlohmann::json plan = nlohmann::json::array();
    for (const auto& v : unique) {
      nlohmann::json j = {{"variant", v.key(m)}, {"dir", b.folder(v).string()}, {"targets", bo.targets}};
      if (const auto configure = b.configure_command(v); !configure.empty()) j["configure"] = configure;
      if (m.build.system == build_system::command) {
        const command_line c = b.build_command_line(v);
        j["command"] = c.argv;
        j["env"] = c.env;
      }
      plan.push_back(j);
      if (!g.json && !g.quiet) {
        fmt::print("{:<24} {}\n", v.key(m), b.folder(v).string());
        for (const auto& line : handed_value_lines(m, v)) fmt::print("    {}\n", line);
      }
    }
    if (g.json) std::cout << plan.dump(2) << "\n";
    return 0;
  }
  auto store = open_store(db_path(g, &m));
  const experiment_context ctx = context_for(g);
  nlohmann::json out = nlohmann::json::array();
  std::map<std::string, std::string> by_digest;  // binaries digest → first variant that produced it
  int failed = 0;
  double total_s = 0;
  for (size_t i = 0; i < unique.size(); ++i) {
    const auto& v = unique[i];
    // "variant i/N", not "[i/N]": that is how a build's own steps are counted below it.
    if (!g.quiet && !g.json && unique.size() > 1) fmt::print(stderr, "variant {}/{} · ", i + 1, unique.size());
    const auto built = build_and_record(m, v, store, b, ctx);
    const auto& o = built.outcome;
    total_s += o.duration_s;
    nlohmann::json j = {{"variant", o.key}, {"ok", o.ok}, {"dir", o.dir.string()}, {"duration_s", o.duration_s},
                        {"build_id", built.build_id}, {"log", o.log_path.string()}, {"details", build_details(m, o)}};
    for (const auto& [name, value] : {std::pair{"objects_compiled", o.cost.objects_compiled}, std::pair{"cache_hits", o.cost.cache_hits},
                                      std::pair{"cache_misses", o.cost.cache_misses}, std::pair{"links", o.cost.links}})
      j[name] = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
    std::string same;
    if (o.ok) {
      for (const auto& [target, bin] : o.binaries) j["binaries"][target] = bin.sha256;
      if (!o.binaries_digest.empty()) {
        auto [it, inserted] = by_digest.emplace(o.binaries_digest, o.key);
        if (!inserted) same = it->second, j["identical_to"] = same;
      }
    } else {
      ++failed;
      j["log_tail"] = o.log_tail;
    }
    out.push_back(j);
    if (!g.json && !g.quiet) {
      if (o.ok) fmt::print("{:<24} ok      {:6.1f} s  {}{}\n", o.key, o.duration_s, o.dir.string(),
                           same.empty() ? "" : fmt::format("  (identical binaries to {})", same));
      else fmt::print("{:<24} FAILED  {:6.1f} s  {}\n{}\n", o.key, o.duration_s, o.log_path.string(), o.log_tail);
    }
  }
  if (!g.json && !g.quiet && unique.size() > 1)
    fmt::print("{} builds in {:.1f} s{}\n", unique.size(), total_s, failed ? fmt::format(", {} failed", failed) : "");
  if (g.json) std::cout << out.dump(2) << "\n";
  return failed ? static_cast<int>(exit_code::build_failed) : 0;
}

}  // namespace

static const registrar build_command(10, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<build_flags>();
  auto* cmd = app.add_subcommand("build", "build variants in their own folders and record the builds");
  cmd->add_option("--toggle,-t", f->toggles, "toggle ID or ID=LEVEL; together they form one variant (with --matrix: the factors)");
  cmd->add_option("--variant", f->variants, "a variant SPEC (base, all, A1=4+B1); repeatable");
  cmd->add_flag("--matrix", f->matrix, "build every variant of a design, each after the one it differs from least");
  cmd->add_option("--design", f->design, "with --matrix: full (every level of every toggle), half (2^(k-p) resolution V), oat")
      ->check(CLI::IsMember({"full", "half", "oat"}));
  cmd->add_option("--bench", f->benches, "build only the programs these benchmarks run (repeatable; default: build.targets)");
  cmd->add_option("--jobs,-j", f->jobs, "parallel build jobs");
  cmd->add_flag("--dry-run", f->dry_run, "say what would be built where, and build nothing");
  cmd->callback([f, &g, &act] { act = [f, &g] { return build(*f, g); }; });
});

}  // namespace abtest::cli
