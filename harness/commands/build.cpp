// `abtest build`: build variants (each in its own folder) and record the builds, without measuring;
// `--matrix` builds a whole design in the order that reuses most.
// What it prints is rendered by report/build_output.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/build_matrix.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/core/toggles/toggle_kind.hpp"
#include "harness/report/build_output.hpp"

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

// The variants named (a design with --matrix), each once: variants that differ only in env toggles
// are one build.
std::vector<variant> variants_to_build(const build_flags& f, const manifest& m) {
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
  std::vector<variant> unique;
  std::set<std::string> seen;
  for (const auto& v : targets)
    if (seen.insert(build_part(v, m).key(m)).second) unique.push_back(build_part(v, m));
  return unique;
}

// --dry-run: what would be built, where — the manifest and the variants are valid.
report::build_plan plan_of(const std::vector<variant>& unique, const manifest& m, const builder& b, const builder_options& bo) {
  report::build_plan plan;
  for (const auto& v : unique) {
    const auto command = m.build.system == build_system::command ? std::optional(b.build_command_line(v)) : std::nullopt;
    plan.builds.push_back({v.key(m), b.folder(v), bo.targets, b.configure_command(v), command, handed_value_lines(m, v)});
  }
  return plan;
}

report::build_result build_all(const std::vector<variant>& unique, const manifest& m, const builder& b, const global_options& g) {
  auto store = open_store(db_path(g, &m));
  const experiment_context ctx = context_for(g);
  report::build_result r;
  std::map<std::string, std::string> by_digest;  // binaries digest → first variant that produced it
  for (size_t i = 0; i < unique.size(); ++i) {
    // "variant i/N", not "[i/N]": that is how a build's own steps are counted below it.
    if (!g.quiet && !g.json && unique.size() > 1) fmt::print(stderr, "variant {}/{} · ", i + 1, unique.size());
    auto built = build_and_record(m, unique[i], store, b, ctx);
    std::string same;
    if (built.outcome.ok && !built.outcome.binaries_digest.empty())
      if (auto [it, inserted] = by_digest.emplace(built.outcome.binaries_digest, built.outcome.key); !inserted) same = it->second;
    nlohmann::json details = build_details(m, built.outcome);
    r.builds.push_back({std::move(built.outcome), built.build_id, std::move(details), std::move(same)});
  }
  return r;
}

int build(const build_flags& f, const global_options& g) {
  const manifest m = load_manifest_for(g);
  const std::vector<variant> unique = variants_to_build(f, m);
  builder_options bo;
  bo.jobs = f.jobs;
  bo.targets = targets_for(m, f.benches);
  builder b(m, bo);
  if (f.dry_run) {
    print_result(g, plan_of(unique, m, b, bo));
    return 0;
  }
  const report::build_result r = build_all(unique, m, b, g);
  print_result(g, r);
  const bool failed = std::any_of(r.builds.begin(), r.builds.end(), [](const auto& row) { return !row.outcome.ok; });
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
